"""Each adapter against its fake platform, part by part."""
