"""Source text of the generated package's core module (``<package>/_core.py``).

It is a template string, not code of studybench: the generated package must stand alone
(only NumPy and the standard library), because it is imported inside the sandbox.
``@PACKAGE@`` is replaced by the package's name. Why each piece exists:

* ``@ARRAY@`` (``ZWCArray`` for ``zwc``, the release's name) holds the NumPy array in a slot
  and offers operators, indexing, iteration and ``shape``/``dtype``/``ndim``/``size``/``T``
  (``T`` wrapped again and ``dtype`` as its name: the reference leaked raw NumPy objects
  there). Every other attribute fails with a hint naming the package function to use, so
  ``x.mean()`` cannot silently work through NumPy's methods.
* ``wrap`` turns every result, of the ``linalg`` submodule too (the reference returned raw
  NumPy results there), into an array of the package, a plain Python scalar, or a plain
  tuple or list of those (NumPy scalars and NumPy's named result tuples would leak NumPy's
  types); a callable result (``vectorize``) becomes a plain function that wraps again.
* ``make`` builds a public function with its own name and documentation that unwraps the
  arguments, calls NumPy and wraps the result; it keeps no ``__wrapped__`` link to NumPy.
"""

CORE = '''"""Core of the @PACKAGE@ package: the array type and the calling convention."""

import numpy as _backend

PACKAGE = "@PACKAGE@"
HINTS = {}  # method name a user may try -> the package function to use instead
_ALLOWED = ("shape", "dtype", "ndim", "size", "T")


class @ARRAY@:
    """An n-dimensional array of @PACKAGE@. Use the package's functions on it."""

    __slots__ = ("_value",)
    __array_ufunc__ = None
    __hash__ = None

    def __init__(self, value):
        object.__setattr__(self, "_value", _backend.asarray(unwrap(value)))

    def __getattr__(self, name):
        hint = HINTS.get(name)
        advice = f"use {hint}(x) instead" if hint else f"use the functions of {PACKAGE}"
        raise AttributeError(f"'{PACKAGE}.@ARRAY@' object has no attribute {name!r}; {advice}")

    def __setattr__(self, name, value):
        raise AttributeError(f"'{PACKAGE}.@ARRAY@' attributes are read-only")

    @property
    def shape(self):
        return tuple(int(n) for n in self._value.shape)

    @property
    def dtype(self):
        return str(self._value.dtype)

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
        return f"@ARRAY@({self._value.tolist()!r})"

    def __str__(self):
        return str(self._value)

    def __copy__(self):
        return @ARRAY@(self._value.copy())

    def __deepcopy__(self, memo):
        return @ARRAY@(self._value.copy())

    def __reduce__(self):
        raise TypeError(f"{PACKAGE}.@ARRAY@ cannot be pickled")


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
    setattr(@ARRAY@, f"__{_name}__", _binary(f"__{_name}__"))
    setattr(@ARRAY@, f"__r{_name}__", _binary(f"__r{_name}__"))
for _name in "eq ne lt le gt ge".split():
    setattr(@ARRAY@, f"__{_name}__", _binary(f"__{_name}__"))
for _name in "neg pos abs invert".split():
    setattr(@ARRAY@, f"__{_name}__", _unary(f"__{_name}__"))


def wrap(value):
    """A result as the package shows it: never a NumPy object."""
    if isinstance(value, _backend.ndarray):
        return value.item() if value.ndim == 0 else @ARRAY@(value)
    if isinstance(value, _backend.generic):
        return value.item()
    if isinstance(value, tuple):
        return tuple(wrap(v) for v in value)
    if isinstance(value, list):
        return [wrap(v) for v in value]
    if isinstance(value, dict):
        return {k: wrap(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, complex, str)):
        return value
    if callable(value) and not isinstance(value, type):
        def function(*args, **kwargs):
            return wrap(value(*unwrap(args), **unwrap(kwargs)))

        return function
    raise TypeError(f"{PACKAGE}: unsupported result type {type(value).__name__}")


def unwrap(value):
    """An argument as NumPy needs it."""
    if isinstance(value, @ARRAY@):
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


def to_array(value):
    """An input the task marks as an array, as the package's array (for the harness)."""
    return @ARRAY@(value)


def export(value):
    """Plain JSON-able data of a result (for the test harness): arrays become lists."""
    if isinstance(value, @ARRAY@):
        return value._value.tolist()
    if isinstance(value, (_backend.ndarray, _backend.generic)):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [export(v) for v in value]
    if isinstance(value, dict):
        return {str(k): export(v) for k, v in value.items()}
    return value
'''
