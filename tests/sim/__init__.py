"""Simulations, tournaments and their backends."""
