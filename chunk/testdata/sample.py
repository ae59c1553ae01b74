#!/usr/bin/env python3
"""Module docstring.

Second paragraph.
"""
import functools

CONST = 1


def plain(a, b=2):
    return a + b


@functools.lru_cache(maxsize=None)
async def cached(x: int) -> int:
    '''Cached docstring.'''
    def helper():
        return x
    return helper()


class Base(object):
    """A base class.

        Indented detail.
    """

    attr = 3

    @property
    def value(self):
        """The value."""
        return self.attr

    def method(self, *args, **kwargs):
        pass

    class Inner:
        def deep(self):
            return 1


if __name__ == "__main__":
    plain(1)
