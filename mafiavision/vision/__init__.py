"""Vision: frame sources, table calibration, hand tracking, finger features, gestures."""
