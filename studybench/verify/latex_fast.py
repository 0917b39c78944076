"""A small, fast LaTeX-to-sympy parser for the notation final answers actually use.

Why it exists: latex2sympy2_extended (the parser behind math-verify) runs an ANTLR grammar in
pure Python; measured on the verifier's case tables it spends 5-200 ms per new expression in
ATN prediction, which made parsing 90% of verification time. Final answers use a narrow
subset of LaTeX (numbers, letters, Greek symbols, sub- and superscripts, ``\\frac``,
``\\sqrt``, elementary functions, parentheses, implicit multiplication), which a
recursive-descent parser reads in well under a millisecond.

Anything outside that subset raises :class:`FastParseError`, and the caller falls back to
latex2sympy2_extended for *both* sides of a comparison, so symbol naming never differs
between the two sides. The parser builds sympy objects directly: no ``eval``, no
``sympify`` of untrusted text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import sympy

MAX_EXPONENT = 400

_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d*)?|\.\d+)|(?P<cmd>\\[A-Za-z]+|\\.)|(?P<ch>[A-Za-z])|(?P<op>\S))"
)
_GREEK = {
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
    "lambda", "mu", "nu", "xi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi",
    "omega", "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi",
    "Omega", "hbar", "ell", "nabla",
}  # fmt: skip
_LETTER_FONTS = frozenset({"mathcal", "mathscr", "mathbb", "mathfrak"})
_GREEK_ALIASES = {"varepsilon": "epsilon", "vartheta": "theta", "varphi": "phi", "varrho": "rho",
                  "varsigma": "sigma", "varpi": "pi"}  # fmt: skip
_FUNCTIONS: dict[str, Any] = {
    "sin": sympy.sin, "cos": sympy.cos, "tan": sympy.tan, "cot": sympy.cot,
    "sec": sympy.sec, "csc": sympy.csc, "arcsin": sympy.asin, "arccos": sympy.acos,
    "arctan": sympy.atan, "arccot": sympy.acot, "arcsec": sympy.asec, "arccsc": sympy.acsc,
    "sinh": sympy.sinh, "cosh": sympy.cosh, "tanh": sympy.tanh, "coth": sympy.coth,
    "sech": sympy.sech, "csch": sympy.csch, "arcsinh": sympy.asinh, "arccosh": sympy.acosh,
    "arctanh": sympy.atanh, "arsinh": sympy.asinh, "arcosh": sympy.acosh,
    "artanh": sympy.atanh, "exp": sympy.exp, "ln": sympy.log,
}  # fmt: skip
# Physics texts write the inverse function as a power: \sin^{-1} x is arcsin x.
_INVERSES: dict[str, Any] = {
    "sin": sympy.asin, "cos": sympy.acos, "tan": sympy.atan, "cot": sympy.acot,
    "sec": sympy.asec, "csc": sympy.acsc, "sinh": sympy.asinh, "cosh": sympy.acosh,
    "tanh": sympy.atanh, "coth": sympy.acoth,
}  # fmt: skip
# Accents name a distinct quantity (\dot M is a rate, not a mass): the accent becomes part
# of the symbol's name. The three ways of writing a mean share one name.
_ACCENTS = {
    "dot": "dot", "ddot": "ddot", "hat": "hat", "widehat": "hat", "tilde": "tilde",
    "widetilde": "tilde", "bar": "mean", "overline": "mean", "check": "check",
}  # fmt: skip
_MUL_COMMANDS = {r"\cdot", r"\times", r"\ast"}
_OPEN = {"(": ")", "[": "]"}


class FastParseError(ValueError):
    """The text uses notation outside the fast parser's subset."""


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str  # num, cmd, ch, op, end
    text: str
    spaced: bool = False  # whitespace before the token


class Cross(sympy.Function):  # type: ignore[misc]
    """The cross product of two vector-valued factors: antisymmetric, scalars pulled out.

    Arguments are kept in a canonical order (swapping them flips the sign), so
    ``E \\times v`` and ``-v \\times E`` build the same expression.
    """

    @classmethod
    def eval(cls, a: Any, b: Any) -> Any:
        if a == b or a == 0 or b == 0:
            return sympy.Integer(0)
        if sympy.default_sort_key(a) > sympy.default_sort_key(b):
            return -cls(b, a)
        return None


def _tokenize(text: str) -> list[_Tok]:
    tokens: list[_Tok] = []
    pos = 0
    text = text.strip()
    spaced = False
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            break
        kind = match.lastgroup or "op"
        spaced = spaced or match.group(0)[:1].isspace()
        tokens.append(_Tok(kind, match.group(kind), spaced))
        pos = match.end()
        spaced = False
        while pos < len(text) and text[pos].isspace():
            pos += 1
            spaced = True
    tokens.append(_Tok("end", ""))
    return tokens


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = _tokenize(text)
        self.pos = 0
        self.vectors: set[Any] = set()  # symbols written as vectors (\vec, \mathbf)

    # -- helpers -------------------------------------------------------------------------
    @property
    def tok(self) -> _Tok:
        return self.tokens[self.pos]

    def take(self) -> _Tok:
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def expect(self, text: str) -> None:
        if self.tok.text != text:
            raise FastParseError(f"expected {text!r}, got {self.tok.text!r}")
        self.pos += 1

    # -- grammar -------------------------------------------------------------------------
    def parse(self) -> Any:
        expr = self.expr()
        if self.tok.kind != "end":
            raise FastParseError(f"unexpected {self.tok.text!r}")
        return expr

    def expr(self) -> Any:
        result = self.term()
        while self.tok.text in ("+", "-"):
            sign = self.take().text
            right = self.term()
            result = result + right if sign == "+" else result - right
        return result

    def term(self) -> Any:
        result = self.signed()
        while True:
            tok = self.tok
            if tok.text == r"\times" and self.vectors:
                self.take()
                result = self._cross(result, self.signed())
            elif tok.text == "*" or tok.text in _MUL_COMMANDS:
                self.take()
                result = result * self.signed()
            elif tok.text == "/":
                self.take()
                result = result / self.denominator()
            elif self._starts_primary(tok):
                result = result * self.postfix()
            else:
                return result

    def denominator(self) -> Any:
        """What follows ``/``: physics texts write ``-8\\chi^2/3r`` for -8chi^2/(3r), so the
        factors that follow all divide; only a space after a plain number ends the
        denominator: ``1/2 mv^2`` means (1/2) m v^2."""
        result = self.signed()
        while self._starts_primary(self.tok) and not (self.tok.spaced and result.is_Number):
            result = result * self.postfix()
        return result

    def _cross(self, left: Any, right: Any) -> Any:
        def split(expr: Any) -> tuple[Any, Any]:
            scalar: list[Any] = []
            vector: list[Any] = []
            for factor in sympy.Mul.make_args(expr):
                (vector if factor.free_symbols & self.vectors else scalar).append(factor)
            return sympy.Mul(*scalar), sympy.Mul(*vector)

        left_scalar, left_vector = split(left)
        right_scalar, right_vector = split(right)
        if left_vector == 1 or right_vector == 1:  # a scalar factor: an ordinary product
            return left * right
        return left_scalar * right_scalar * Cross(left_vector, right_vector)

    def signed(self) -> Any:
        if self.tok.text == "-":
            self.take()
            return -self.signed()
        if self.tok.text == "+":
            self.take()
            return self.signed()
        return self.postfix()

    def _starts_primary(self, tok: _Tok) -> bool:
        if tok.kind in ("num", "ch"):
            return True
        if tok.kind == "cmd":
            name = tok.text[1:]
            return (
                name in _GREEK
                or name in _GREEK_ALIASES
                or name in _FUNCTIONS
                or name in _ACCENTS
                or name in _LETTER_FONTS
                or name in ("frac", "sqrt", "pi", "infty", "log", "vec", "langle")
            )
        return tok.text in ("(", "[", "{")

    def postfix(self) -> Any:
        base = self.primary()
        while True:
            if self.tok.text == "^":
                self.take()
                base = _power(base, self.group_or_atom())
            elif self.tok.text == "!":
                self.take()
                if not (base.is_Integer and 0 <= base <= 100):
                    raise FastParseError("factorial")
                base = sympy.factorial(base)
            else:
                return base

    def group_or_atom(self) -> Any:
        """The argument of ``^``, ``\\frac``, ``\\sqrt``: a braced group or one token."""
        tok = self.tok
        if tok.text == "{":
            self.take()
            inner = self.expr()
            self.expect("}")
            return inner
        if tok.kind == "num":  # LaTeX takes one character: \frac12 = 1/2, x^23 = x^2 * 3
            if not tok.text[0].isdigit():
                raise FastParseError("bad argument")
            if len(tok.text) > 1:
                self.tokens[self.pos] = _Tok("num", tok.text[1:])
            else:
                self.take()
            return sympy.Integer(tok.text[0])
        if tok.kind == "ch":
            self.take()
            return self._symbol(tok.text)
        if tok.kind == "cmd":
            return self.primary()
        if tok.text == "-":
            self.take()
            return -self.group_or_atom()
        raise FastParseError(f"bad argument {tok.text!r}")

    def primary(self) -> Any:
        tok = self.take()
        if tok.kind == "num":
            return _number(tok.text)
        if tok.kind == "ch":
            if tok.text == "e" and self.tok.text == "^":
                return sympy.E
            return self._symbol(tok.text)
        if tok.text in _OPEN:
            inner = self.expr()
            self.expect(_OPEN[tok.text])
            return inner
        if tok.text == "{":
            inner = self.expr()
            self.expect("}")
            return inner
        if tok.text == "|":
            inner = self.expr()
            self.expect("|")
            return sympy.Abs(inner)
        if tok.kind == "cmd":
            return self.command(tok.text[1:])
        raise FastParseError(f"unexpected {tok.text!r}")

    def command(self, name: str) -> Any:
        if name == "frac":
            numerator = self.group_or_atom()
            return numerator / self.group_or_atom()
        if name == "sqrt":
            if self.tok.text == "[":
                self.take()
                index = self.expr()
                self.expect("]")
                return sympy.root(self.group_or_atom(), index)
            return sympy.sqrt(self.group_or_atom())
        if name == "pi":
            return sympy.pi
        if name == "infty":
            return sympy.oo
        if name in _GREEK or name in _GREEK_ALIASES:
            return self._symbol(_GREEK_ALIASES.get(name, name))
        if name in _ACCENTS or name == "vec":
            return self.accented(name)
        if name in _LETTER_FONTS:
            return self.font_letter()
        if name == "langle":  # <v>: the mean, named as \bar v
            inner = self.expr()
            self.expect(r"\rangle")
            return self._rename(inner, "mean")
        if name in _FUNCTIONS or name == "log":
            return self.function(name)
        raise FastParseError(f"unsupported command \\{name}")

    def accented(self, name: str) -> Any:
        """``\\dot{M}``, ``\\hat{\\vec z}``, ``\\bar v``, ``\\vec{E}``: one decorated symbol."""
        inner = self.group_or_atom()
        if name == "vec":
            if not inner.is_Symbol:
                raise FastParseError("vector of an expression")
            self.vectors.add(inner)
            return self._with_subscript(inner)
        return self._with_subscript(self._rename(inner, _ACCENTS[name]))

    def _rename(self, inner: Any, accent: str) -> Any:
        if not inner.is_Symbol:
            raise FastParseError("accent on an expression")
        base, _, subscript = inner.name.partition("_")  # the accent goes on the letter
        renamed = sympy.Symbol(f"{base}_{accent}" + (f"_{subscript}" if subscript else ""))
        if inner in self.vectors:
            self.vectors.add(renamed)
        return renamed

    def _with_subscript(self, symbol: Any) -> Any:
        """A subscript after the accent group: ``\\bar{v}_x``."""
        if self.tok.text != "_":
            return symbol
        renamed = self._symbol(symbol.name)
        if symbol in self.vectors:
            self.vectors.add(renamed)
        return renamed

    def function(self, name: str) -> Any:
        base: Any = None
        if name == "log" and self.tok.text == "_":
            self.take()
            base = self.group_or_atom()
            if base == sympy.Symbol("e"):  # \log_e is the natural logarithm
                base = None
        power = None
        if self.tok.text == "^":  # \sin^2\theta = (\sin\theta)^2
            self.take()
            power = self.group_or_atom()
        argument = self.function_argument()
        if power is not None and power == -1 and name in _INVERSES:
            return _INVERSES[name](argument)
        if name == "log":
            value = sympy.log(argument, base) if base is not None else sympy.log(argument)
        else:
            value = _FUNCTIONS[name](argument)
        return _power(value, power) if power is not None else value

    def function_argument(self) -> Any:
        """``\\sin(x)``, ``\\sin{x}``, or ``\\sin 2\\theta``: a run of simple factors."""
        if self.tok.text in ("(", "[", "{"):
            return self.postfix()
        factors = [self.postfix()]
        while self.tok.kind in ("num", "ch") or (
            self.tok.kind == "cmd"
            and (self.tok.text[1:] in _GREEK or self.tok.text[1:] in ("pi", "frac", "sqrt"))
        ):
            factors.append(self.postfix())
        return sympy.Mul(*factors)

    def font_letter(self) -> Any:
        """``\\mathcal{E}`` (an emf), ``\\mathscr{L}``: one letter in a font, named as
        latex2sympy2_extended names it (``math{E}``), so both parsers agree. Several letters
        are left to that parser."""
        braced = self.tok.text == "{"
        if braced:
            self.take()
        tok = self.take()
        if tok.kind != "ch" or not tok.text.isalpha():
            raise FastParseError("unsupported font argument")
        if braced:
            self.expect("}")
        return self._symbol(f"math{{{tok.text}}}")

    def _symbol(self, name: str) -> Any:
        """A symbol with its subscript and primes: ``v_0``, ``m_{e}``, ``x'``."""
        if self.tok.text == "_":
            self.take()
            name = f"{name}_{self._subscript_text()}"
        while self.tok.text == "'":
            self.take()
            name += "_prime"
        return sympy.Symbol(name)

    def _subscript_text(self) -> str:
        tok = self.take()
        if tok.text != "{":
            if tok.kind in ("num", "ch"):
                return tok.text if tok.kind == "ch" else tok.text[0]
            if tok.kind == "cmd" and tok.text[1:].isalpha():
                return tok.text[1:]
            raise FastParseError("subscript")
        parts = []
        while self.tok.text != "}":
            part = self.take()
            if part.kind == "end" or part.text in ("{", "^", "_"):
                raise FastParseError("subscript")
            parts.append(part.text.lstrip("\\"))
        self.take()
        if not parts:
            raise FastParseError("subscript")
        return "".join(parts)


def _number(text: str) -> Any:
    return sympy.Float(text) if "." in text else sympy.Integer(text)


def _power(base: Any, exponent: Any) -> Any:
    if exponent.is_Number and abs(exponent) > MAX_EXPONENT and base.is_Number:
        raise FastParseError("too_large")
    if exponent.is_Number and abs(exponent) > 10 * MAX_EXPONENT:
        raise FastParseError("too_large")
    return sympy.Pow(base, exponent)


def parse_fast(text: str) -> Any:
    """Parse ``text`` (one expression, no relation) or raise :class:`FastParseError`."""
    if not text.strip():
        raise FastParseError("empty")
    try:
        return _Parser(text).parse()
    except RecursionError as exc:
        raise FastParseError("too_deep") from exc
    except (TypeError, ValueError, ZeroDivisionError) as exc:
        if isinstance(exc, FastParseError):
            raise
        raise FastParseError(str(exc)) from exc
