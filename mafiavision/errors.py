"""Errors a user can cause: each prints as one line naming the file or field, never a traceback.

Every error the CLI should report as a user's mistake subclasses :class:`UserError` *and* a
standard exception (``ValueError``, ``FileNotFoundError``...), so library callers can catch the
standard type.
"""

from __future__ import annotations


class UserError(Exception):
    """Base class of every error caused by the user's input (files, options, records)."""


class InputError(UserError, ValueError):
    """A file or value given by the user is invalid: the message names it and what was expected."""


class MissingInputError(UserError, FileNotFoundError):
    """A file the user named does not exist."""
