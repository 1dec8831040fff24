"""Widgets of the judging UI; they show what screens give them and post messages upward."""
