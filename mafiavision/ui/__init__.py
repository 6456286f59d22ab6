"""The moderator confirmation screen (HTTP + websocket)."""
