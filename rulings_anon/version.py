"""The package's version, in a module of its own: the console script, the fetcher's user agent and
model directories read it without importing the public API of the package."""

__version__ = "0.1.0"
