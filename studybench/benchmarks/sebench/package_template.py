"""Source text of the generated package's core module (``<package>/_core.py``).

It is a template string, not code of studybench: the generated package must stand alone
(only NumPy and the standard library), because it is imported inside the sandbox.
``@PACKAGE@`` is replaced by the package's name. Why each piece exists:

* ``Array`` holds the NumPy array in a slot and offers operators, indexing, iteration and
  ``shape``/``ndim``/``size``/``T`` (``T`` wrapped again: the reference leaked raw arrays
  there). Every other attribute fails with a hint naming the package function to use, so
  ``x.mean()`` cannot silently work through NumPy's methods.
* ``wrap`` turns every result into an ``Array``, a plain Python scalar, or a plain tuple or
  list of those (NumPy scalars and NumPy's named result tuples would leak NumPy's types).
* ``make`` builds a public function with its own name and documentation that unwraps the
  arguments, calls NumPy and wraps the result; it keeps no ``__wrapped__`` link to NumPy.
"""

CORE = '''"""Core of the @PACKAGE@ package: the array type and the calling convention."""

import numpy as _backend

PACKAGE = "@PACKAGE@"
HINTS = {}  # method name a user may try -> the package function to use instead
_ALLOWED = ("shape", "ndim", "size", "T")


class Array:
    """An n-dimensional array of @PACKAGE@. Use the package's functions on it."""

    __slots__ = ("_value",)
    __array_ufunc__ = None
    __hash__ = None

    def __init__(self, value):
        object.__setattr__(self, "_value", _backend.asarray(unwrap(value)))

    def __getattr__(self, name):
        hint = HINTS.get(name)
        advice = f"use {hint}(x) instead" if hint else f"use the functions of {PACKAGE}"
        raise AttributeError(f"'{PACKAGE}.Array' object has no attribute {name!r}; {advice}")

    def __setattr__(self, name, value):
        raise AttributeError(f"'{PACKAGE}.Array' attributes are read-only")

    @property
    def shape(self):
        return tuple(int(n) for n in self._value.shape)

    @property
    def ndim(self):
        return int(self._value.ndim)

    @property
    def size(self):
        return int(self._value.size)

    @property
    def T(self):
        return wrap(self._value.T)

    def __len__(self):
        return len(self._value)

    def __iter__(self):
        for item in self._value:
            yield wrap(item)

    def __getitem__(self, key):
        return wrap(self._value[unwrap(key)])

    def __setitem__(self, key, value):
        self._value[unwrap(key)] = unwrap(value)

    def __contains__(self, item):
        return bool(unwrap(item) in self._value)

    def __bool__(self):
        return bool(self._value)

    def __float__(self):
        return float(self._value)

    def __int__(self):
        return int(self._value)

    def __index__(self):
        return self._value.__index__()

    def __complex__(self):
        return complex(self._value)

    def __repr__(self):
        return f"array({self._value.tolist()!r})"

    def __str__(self):
        return str(self._value.tolist())

    def __copy__(self):
        return Array(self._value.copy())

    def __deepcopy__(self, memo):
        return Array(self._value.copy())

    def __reduce__(self):
        raise TypeError(f"{PACKAGE}.Array cannot be pickled")


def _binary(name):
    def method(self, other):
        return wrap(getattr(self._value, name)(unwrap(other)))

    method.__name__ = name
    return method


def _unary(name):
    def method(self):
        return wrap(getattr(self._value, name)())

    method.__name__ = name
    return method


for _name in (
    "add sub mul truediv floordiv mod pow matmul and or xor lshift rshift".split()
):
    setattr(Array, f"__{_name}__", _binary(f"__{_name}__"))
    setattr(Array, f"__r{_name}__", _binary(f"__r{_name}__"))
for _name in "eq ne lt le gt ge".split():
    setattr(Array, f"__{_name}__", _binary(f"__{_name}__"))
for _name in "neg pos abs invert".split():
    setattr(Array, f"__{_name}__", _unary(f"__{_name}__"))


def wrap(value):
    """A result as the package shows it: never a NumPy object."""
    if isinstance(value, _backend.ndarray):
        return value.item() if value.ndim == 0 else Array(value)
    if isinstance(value, _backend.generic):
        return value.item()
    if isinstance(value, tuple):
        return tuple(wrap(v) for v in value)
    if isinstance(value, list):
        return [wrap(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, complex, str)):
        return value
    raise TypeError(f"{PACKAGE}: unsupported result type {type(value).__name__}")


def unwrap(value):
    """An argument as NumPy needs it."""
    if isinstance(value, Array):
        return value._value
    if isinstance(value, list):
        return [unwrap(v) for v in value]
    if isinstance(value, tuple):
        return tuple(unwrap(v) for v in value)
    if isinstance(value, dict):
        return {k: unwrap(v) for k, v in value.items()}
    return value


def make(path, name, doc, module):
    """The public function ``name`` wrapping the NumPy function at ``path``."""
    target = _backend
    for part in path.split("."):
        target = getattr(target, part)

    def function(*args, **kwargs):
        return wrap(target(*unwrap(args), **unwrap(kwargs)))

    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc
    function.__module__ = module
    return function


def export(value):
    """Plain JSON-able data of a result (for the test harness): arrays become lists."""
    if isinstance(value, Array):
        return value._value.tolist()
    if isinstance(value, (_backend.ndarray, _backend.generic)):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [export(v) for v in value]
    if isinstance(value, dict):
        return {str(k): export(v) for k, v in value.items()}
    return value
'''
