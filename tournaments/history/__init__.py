"""A club's history brought in from its spreadsheets (issue 39): past evenings imported
from a CSV or ``.xlsx`` file, counted in the club tables as played ones."""
