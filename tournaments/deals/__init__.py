"""Deals at the platform: entry and correction at a table or in the console, their
running scores, hand records and the analysis API. The deal rows, the engine and the
analysis service live in ``games``, the layer below."""
