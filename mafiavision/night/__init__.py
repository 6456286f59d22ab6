"""The night: arbiter of hunts and checks, the live night session."""
