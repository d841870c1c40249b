#!/usr/bin/env python3
"""Expense report: totals per category and per month from a bank CSV export."""
