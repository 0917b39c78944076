"""The NumPy functions the obfuscated package wraps: SE-Bench's published list.

``MAIN`` (247 top-level names, in the published order) and ``LINALG`` (31 names of
``numpy.linalg``, published order) are the reference package's API; the order matters,
because the seeded name generator (:mod:`.names`) walks them in this order and so
reproduces the published mapping exactly. Six names are in both lists (``trace``,
``diagonal``, ``cross``, ``outer``, ``tensordot``, ``matmul``): 278 wrapped functions over 272
distinct NumPy names. Paths are ``mean`` for the top level and ``linalg.inv`` for the
submodule. ``params.yaml`` (``sebench.functions``) can narrow the list; every task's
``functions`` must be in the list used.
"""

from __future__ import annotations

# constructors: a solution that calls only one of these has not used the package's API
CONSTRUCTORS: tuple[str, ...] = ("array",)

MAIN: tuple[str, ...] = tuple(
    """
    abs absolute acos acosh add all allclose amax amin any arange arccos arccosh arcsin
    arcsinh arctan arctan2 arctanh argmax argmin argpartition argsort argwhere around array
    array2string array_equal array_equiv array_repr array_str asanyarray asarray
    ascontiguousarray asfortranarray asin asinh astype atan atan2 atanh atleast_1d atleast_2d
    atleast_3d average base_repr binary_repr bincount bitwise_and bitwise_count bitwise_invert
    bitwise_left_shift bitwise_not bitwise_or bitwise_right_shift bitwise_xor block
    broadcast_arrays broadcast_to cbrt ceil choose clip compress concatenate conj conjugate
    convolve copy copysign copyto corrcoef correlate cos cosh count_nonzero cov cross cumprod
    cumsum deg2rad degrees delete diag diagflat diagonal diff digitize divide divmod dot empty
    empty_like equal exp exp2 expand_dims expm1 extract eye fabs flip floor floor_divide fmax
    fmin fmod frexp full full_like gcd geomspace gradient greater greater_equal heaviside
    histogram hstack hypot identity imag inner insert interp intersect1d invert isclose
    isfinite isinf isnan isreal ix_ kron lcm ldexp left_shift less less_equal lexsort linspace
    log log1p log2 log10 logaddexp logaddexp2 logical_and logical_not logical_or logical_xor
    logspace matmul max maximum mean median meshgrid min minimum mod modf moveaxis multiply
    nan_to_num negative nextafter nonzero not_equal ones ones_like outer pad partition
    percentile permute_dims piecewise place polyfit polyval positive pow power prod ptp put
    putmask quantile rad2deg radians ravel real reciprocal remainder repeat reshape resize
    right_shift rint roll rollaxis roots rot90 round searchsorted select shape sign signbit sin
    sinc sinh size sort sort_complex spacing split sqrt square squeeze stack std subtract sum
    swapaxes take tan tanh tensordot tile trace transpose trapz tri tril triu true_divide trunc
    union1d unique unravel_index unwrap var vdot vectorize vstack where zeros zeros_like
    """.split()
)

LINALG: tuple[str, ...] = tuple(
    """
    matrix_power solve tensorsolve tensorinv inv cholesky eigvals eigvalsh pinv slogdet det
    svd svdvals eig eigh lstsq norm qr cond matrix_rank multi_dot trace diagonal cross outer
    tensordot matmul matrix_transpose matrix_norm vector_norm vecdot
    """.split()
)

# NumPy functions renamed since the reference pinned numpy 2.3: the wrapper keeps the
# published name and calls the new one where the old one is gone.
RENAMED: dict[str, str] = {"trapz": "trapezoid"}

DEFAULT_FUNCTIONS: tuple[str, ...] = (*MAIN, *(f"linalg.{name}" for name in LINALG))
