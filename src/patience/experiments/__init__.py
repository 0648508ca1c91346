"""Experiments at scale: batch runs into a resumable SQLite store, statistics, executors and reports."""
