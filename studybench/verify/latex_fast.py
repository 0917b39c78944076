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
_GREEK_ALIASES = {"varepsilon": "epsilon", "vartheta": "theta", "varphi": "phi", "varrho": "rho",
                  "varsigma": "sigma", "varpi": "pi"}  # fmt: skip
_FUNCTIONS: dict[str, Any] = {
    "sin": sympy.sin, "cos": sympy.cos, "tan": sympy.tan, "cot": sympy.cot,
    "sec": sympy.sec, "csc": sympy.csc, "arcsin": sympy.asin, "arccos": sympy.acos,
    "arctan": sympy.atan, "sinh": sympy.sinh, "cosh": sympy.cosh, "tanh": sympy.tanh,
    "exp": sympy.exp, "ln": sympy.log,
}  # fmt: skip
_MUL_COMMANDS = {r"\cdot", r"\times", r"\ast"}
_OPEN = {"(": ")", "[": "]"}


class FastParseError(ValueError):
    """The text uses notation outside the fast parser's subset."""


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str  # num, cmd, ch, op, end
    text: str


def _tokenize(text: str) -> list[_Tok]:
    tokens: list[_Tok] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            break
        kind = match.lastgroup or "op"
        tokens.append(_Tok(kind, match.group(kind)))
        pos = match.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    tokens.append(_Tok("end", ""))
    return tokens


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = _tokenize(text)
        self.pos = 0

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
            if tok.text == "*" or tok.text in _MUL_COMMANDS:
                self.take()
                result = result * self.signed()
            elif tok.text == "/":
                self.take()
                result = result / self.signed()
            elif self._starts_primary(tok):
                result = result * self.postfix()
            else:
                return result

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
                or name in ("frac", "sqrt", "pi", "infty", "log")
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
        if name in _FUNCTIONS or name == "log":
            return self.function(name)
        raise FastParseError(f"unsupported command \\{name}")

    def function(self, name: str) -> Any:
        base: Any = None
        if name == "log" and self.tok.text == "_":
            self.take()
            base = self.group_or_atom()
        power = None
        if self.tok.text == "^":  # \sin^2\theta = (\sin\theta)^2
            self.take()
            power = self.group_or_atom()
        argument = self.function_argument()
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
