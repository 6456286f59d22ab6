"""Audio: sources, voice activity, ordinal alignment of the spoken seat numbers."""
