"""Formats of answers: solution files and reviews written into game records."""
