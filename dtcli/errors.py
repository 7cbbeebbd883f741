"""The errors dtree reports to users.

Every error a user can cause is a :class:`DtreeError`; the command-line layer
turns it into one line, ``Error: <message>``, and exit status 1. Anything else
escaping is a bug.
"""


class DtreeError(Exception):
    """A problem with the user's data, model or options (exit status 1)."""


class DataError(DtreeError, ValueError):
    """The input table cannot be read or does not fit the request."""


class ModelFormatError(DtreeError):
    """A model file is not a valid dtree model."""


class ParameterError(DtreeError, ValueError):
    """An option value or combination that cannot be honoured."""


class DtreeWarning(UserWarning):
    """Something the user should know that does not stop the run (the Python API's warnings)."""
