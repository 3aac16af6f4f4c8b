"""Gradio user interface: one builder per tab, handlers as plain functions."""
