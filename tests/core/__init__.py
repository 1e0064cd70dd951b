"""The kernel and the engine contract every game meets."""
