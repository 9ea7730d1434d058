"""Terminal client and command-line entry points of modernart."""
