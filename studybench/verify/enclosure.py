"""Which boxes stand where a reader sees them as the answer (verifier 1.14.0).

:mod:`studybench.verify.visibility` removes what known markup hides: a list of tricks, and a
list is never complete. A seventh red-team round hid a right box in a user macro that
swallows its argument, a beamer note, a ``\\todo[disable]``, a code element, a spoiler, an
unreferenced footnote, a box pushed 100 cm off the page, text after ``\\catcode`` changes.
This module turns the question round: a box counts only where every group and environment
around it is one known to show its content as it is (math, type faces, sizes, frames, lists,
tables). A box inside anything else becomes text (``\\mbox``): its words are still read for
hedges, but it is no answer. Soundness first: an honest answer boxed inside an unknown
wrapper goes to the LLM judge; a hidden one no longer earns the reward.

An eighth round disguised boxes the reader does see: a wrong box drawn over the right one
(``\\llap``), a command or a character that prints something else (``\\mathcode``,
``\\renewcommand{\\frac}``), skips that only add up to a page, a ``\\title`` never typeset,
a loop that never runs, a code block that says another value, a class that hides.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from functools import lru_cache

from studybench.data.boxes import brace_partners, delimited_spans, matching_brace
from studybench.verify.lengths import points
from studybench.verify.normalize import normalize_answer

# a box with its argument (``\\renewcommand{\\boxed}`` names the command: visibility.py's)
_BOXED = re.compile(r"\\(?:boxed|fbox|framebox)(?![a-zA-Z])(?=\s*[\[{])")

# Commands whose braced arguments are typeset as they are: type faces, sizes, colours (a
# colour that hides is visibility.py's), frames, math constructs (an operation around a box
# is the operand rule's), titles, and the box itself.
_SHOWN_COMMANDS = frozenset(
    """boxed fbox framebox mbox text textrm textbf textit textsf texttt textup textsl textsc
    textnormal textmd mathrm mathbf mathit mathsf mathtt mathcal mathnormal boldsymbol bm
    pmb emph underline uline ul displaystyle textstyle ensuremath color textcolor colorbox
    fcolorbox tiny scriptsize footnotesize small normalsize large Large LARGE huge Huge
    centerline frac dfrac tfrac cfrac sqrt overline bar underbrace overbrace left right
    section subsection subsubsection paragraph subparagraph part chapter title caption
    item operatorname href tooltip hbox scalebox resizebox raisebox adjustbox only enclose
    htmlClass htmlId htmlStyle cssId class node style bbox hl highlight underset overset
    stackrel shadowbox doublebox ovalbox Ovalbox makebox bf it substack smash
    xrightarrow xleftarrow""".split()
)
# \\hl shows its argument on the highlight colour the output sets: any \\sethlcolor may hide it
_HIGHLIGHTS = frozenset({"hl", "highlight"})
# (visibility.py reads the parameters of those that can hide: a scale of 0, a far raise, an
# overlay specification, a hiding colour or style)
# Environments: an honest answer uses many (theorem-like blocks, frames, beamer blocks, exam
# parts, tcolorbox), so these are read the other way round. An environment hides its box where
# its name says it does, where the output defines it itself (\\newenvironment can make it
# store its body), or where its options make the text invisible (``coltext=white``).
_HIDING_ENVIRONMENTS = frozenset(
    """spoiler spoilers hide hidden invisible comment ignore lrbox filecontents verbatim
    Verbatim lstlisting minted""".split()
)
_DEFINED_ENVIRONMENT = re.compile(
    r"\\(?:(?:re)?newenvironment|(?:New|Renew|Declare|Provide)DocumentEnvironment|newtcolorbox"
    r"|DeclareTColorBox|NewTColorBox|newmdenv|specialcomment|excludecomment)\*?\s*\{\s*"
    r"(?P<name>[A-Za-z@]+)\s*\}"
)
_INVISIBLE_OPTIONS = re.compile(
    r"\b(?:coltext|colupper|collower|fontupper|fontlower|fontcolor|textcolor)\s*=\s*"
    r"(?:\\color\s*\{\s*)?white\b|\bopacitytext\s*=\s*0(?:\.0*)?\b",
    re.IGNORECASE,
)
# environments the comment package is told to keep: \includecomment{note}
_INCLUDED = re.compile(r"\\includecomment\s*\{\s*(?P<name>[A-Za-z@]+)\s*\}")
# the command (and its earlier arguments) that owns a brace: ``\\textcolor{red}{``, ``\\t={``
_OWNER = re.compile(
    r"\\(?P<name>[A-Za-z@_:]+)\*?\s*(?:=\s*)?"
    r"(?:\s*(?:\[[^\[\]{}]*\]|<[^<>{}]*>|\{(?:[^{}]|\{[^{}]*\})*\}|\([^(){}]*\)))*\s*$"
)
_OWNER_WINDOW = 200  # characters read back from a brace for its command and arguments
_ENVIRONMENT = re.compile(
    r"\\(?P<edge>begin|end)\s*\{(?P<name>[A-Za-z@]+)\*?\}(?P<options>\s*\[[^\[\]]{0,300}\])?"
)
# after these, a reader cannot tell what TeX typesets: category codes changed, the job ended,
# what a character prints changed (``\\mathcode`B="7144`` prints B as D,
# ``\\DeclareMathSymbol{5}{\\mathord}{operators}{`9}``, ``\\lccode`\\~=`5 \\lowercase{\\def~}``,
# a font set for a math family), a control symbol or an active character defined
# (``\\def\\,{9}``, ``\\def~{9}``), a command named through ``\\csname`` or expl3 syntax
_UNREADABLE_AFTER = re.compile(
    r"\\catcode(?![a-zA-Z])|\\csname\s*@@end\s*\\endcsname|\\@@end(?![a-zA-Z])"
    r"|\\end(?![a-zA-Z{\s])|\\end\s*(?:\n|$)"
    r"|\\(?:mathcode|delcode|lccode|uccode|DeclareMath(?:Symbol|Delimiter|Accent|Radical)"
    r"|DeclareSymbolFont\w*|SetSymbolFont|DeclareMathAlphabet|SetMathAlphabet|textfont"
    r"|scriptfont|scriptscriptfont|csname|ExplSyntaxOn|@namedef|scantokens)(?![a-zA-Z])"
    r"|\\(?:[gex]?def|let|futurelet|(?:re)?newcommand\*?|providecommand\*?"
    r"|DeclareRobustCommand\*?)\s*\{?\s*(?:~|\\[^A-Za-z@\s])|\\font\s*\\[A-Za-z@]"
)
# a tikz drawing: a node is placed where its options say. Drawn over the page (overlay),
# clipped away, or placed far off it, its box is not seen (other hiding options are
# visibility.py's)
_TIKZ = re.compile(
    r"\\tikz(?![a-zA-Z]).*?(?:;|\Z)|\\begin\s*\{tikzpicture\}.*?(?:\\end\s*\{tikzpicture\}|\Z)",
    re.DOTALL,
)
_TIKZ_AWAY = re.compile(r"\boverlay\b|\bclip\b")
_TIKZ_LENGTH = re.compile(r"-?\d*\.?\d+\s*(?:pt|cm|mm|in|em|ex|bp|pc|dd|cc|px)\b")
_FAR_POINTS = 300.0  # about 10.5 cm: skips adding up to this before a box push it off the page
# HTML whose content is code or folded away (a box in it is shown as code, or not at all)
_CODE_ELEMENTS = re.compile(
    r"<(?P<tag>pre|code|xmp|samp|kbd|tt|template|noscript|script|style|textarea)\b"
    r"[^<>]{0,300}>.*?(?:</(?P=tag)\s*>|\Z)|<plaintext\b.*"
    r"|(?P<folded><details\b(?![^<>]*\bopen\b)[^<>]{0,300}>).*?(?:</details\s*>|\Z)",
    re.IGNORECASE | re.DOTALL,
)
_SUMMARY_END = re.compile(r"</summary\s*>", re.IGNORECASE)  # a folded element shows its summary
# an element with a style (see _plain_style)
_STYLED = re.compile(
    r"<(?P<tag>[A-Za-z][\w-]*)\b[^<>]*?\bstyle\s*=\s*(?P<q>[\"'])(?P<style>.*?)(?P=q)[^<>]*>",
    re.IGNORECASE | re.DOTALL,
)
# inline code: a box in it is shown as code, ``\\lstinline|\\boxed{…}|``
_INLINE_CODE = re.compile(
    r"\\(?:lstinline|mintinline\s*\{[^{}]*\}|verb|Verb)\*?\s*(?:\[[^\]]*\])?"
    r"(?:(?P<d>[^\w\s{])(?:(?!(?P=d)).)*(?P=d)|\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\})",
    re.DOTALL,
)
# spoilers (shown only on a click): Reddit ">! … !<", Markdown ":::spoiler" (not Discord's
# "||…||": in math two bars are norms and products of magnitudes)
_SPOILERS = re.compile(r">!.*?!<|^:::\s*spoiler\b.*?^:::", re.DOTALL | re.MULTILINE)
# a Markdown footnote's definition: shown only where the text refers to it
_FOOTNOTE = re.compile(r"^\[\^(?P<label>[^\]\s]{1,40})\]:(?P<body>.*(?:\n(?:[ \t]+.*|))*)", re.M)


def untrusted_boxes(text: str) -> str:
    """``text`` with every box that does not stand where a reader sees it as the answer made
    text (``\\mbox``); see the module's docstring."""
    if "\\boxed" not in text and "\\fbox" not in text and "\\framebox" not in text:
        return text
    spans = sorted(_untrusted_spans(text))
    if not spans:
        return text
    pieces, position = [], 0
    for start, end in spans:
        if end <= position:
            continue
        start = max(start, position)
        pieces.append(text[position:start])
        pieces.append(_BOXED.sub(r"\\mbox", text[start:end]))
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def _untrusted_spans(text: str) -> Iterator[tuple[int, int]]:
    unreadable = _UNREADABLE_AFTER.search(text)
    if unreadable is not None:
        yield unreadable.start(), len(text)
    yield from _enclosed(text)
    yield from (m.span() for m in _INLINE_CODE.finditer(text))
    if "tikz" in text:
        for drawing in _TIKZ.finditer(text):
            far = any(_far(length) for length in _TIKZ_LENGTH.findall(drawing.group()))
            if far or _TIKZ_AWAY.search(drawing.group()):
                yield drawing.span()
    boxes = _box_spans(text)
    yield from _far_moves(text, boxes)
    yield from _redefined(text, boxes)
    yield from _overprinted(text, boxes)
    yield from _loop_bodies(text)
    yield from _disagreeing_code(text, boxes)
    if "<" in text:
        for element in _CODE_ELEMENTS.finditer(text):
            summary = _SUMMARY_END.search(element.group()) if element.group("folded") else None
            yield element.start() + (summary.end() if summary else 0), element.end()
        for element in _STYLED.finditer(text):
            if not _plain_style(element.group("style")):
                yield _element_span(text, element)
        for element in _CLASSED.finditer(text):
            if _hiding_classes(element.group("names") or element.group("bare") or ""):
                yield _element_span(text, element)
    yield from (m.span() for m in _SPOILERS.finditer(text))
    if "[^" in text:
        for note in _FOOTNOTE.finditer(text):
            reference = f"[^{note.group('label')}]"
            elsewhere = text[: note.start()] + text[note.end() :]
            if reference not in elsewhere:
                yield note.span()


def _far(length: str) -> bool:
    return (points(length.replace(" ", "")) or 0.0) >= _FAR_POINTS


def _element_span(text: str, element: re.Match[str]) -> tuple[int, int]:
    """An HTML element from its opening tag to its closing one (the rest of the text when
    the element is never closed: a browser closes it at the end)."""
    close = re.compile(rf"</{re.escape(element.group('tag'))}\s*>", re.I)
    end = close.search(text, element.end())
    return element.start(), len(text) if end is None else end.end()


def _plain_style(style: str) -> bool:
    """Whether a style attribute can be read as written (visibility.py then judges what it
    does): no character reference or escape (``display:&#110;one``), no computed value
    (``color-mix(…)``, ``var(…)``), no blend mode, and an opacity that is a plain number of
    at least 0.1 (``opacity:1e-9`` is zero)."""
    if "&" in style or "\\" in style:
        return False  # a character reference or escape in CSS: written to hide a property
    for declaration in style.split(";"):
        name, _, value = (part.strip().casefold() for part in declaration.partition(":"))
        text_colour = name in ("color", "-webkit-text-fill-color")
        if "blend" in name or (text_colour and _COMPUTED.search(value)):
            return False
        if name == "opacity" and _opacity(value) < _VISIBLE_OPACITY:
            return False
        if name.startswith("text-decoration") and "line-through" in value:
            return False  # struck through, as <del> and \\sout are: taken back
    return True


_COMPUTED = re.compile(r"\b(?!rgba?\(|hsla?\()[a-z-]+\(", re.IGNORECASE)
_VISIBLE_OPACITY = 0.1


def _opacity(value: str) -> float:
    try:
        return float(value.removesuffix("%")) / (100 if value.endswith("%") else 1)
    except ValueError:
        return 0.0  # an opacity no reader can tell


def _enclosed(text: str) -> Iterator[tuple[int, int]]:
    """The boxes inside a group or environment that is not known to show its content."""
    included = {m.group("name") for m in _INCLUDED.finditer(text)}
    defined = {m.group("name") for m in _DEFINED_ENVIRONMENT.finditer(text)}
    hiding = (_HIDING_ENVIRONMENTS | defined) - included
    edges = [
        (
            m.start(),
            m.group("edge") == "begin",
            m.group("name"),
            bool(_INVISIBLE_OPTIONS.search(m.group("options") or "")),
        )
        for m in _ENVIRONMENT.finditer(text)
    ]
    boxes = {m.start() for m in _BOXED.finditer(text)}
    hidden_groups = _boxes_in_hidden_groups(text, boxes)
    environments: list[tuple[str, bool]] = []  # the open ones: name, text made invisible
    edge = 0
    for box in sorted(boxes):
        while edge < len(edges) and edges[edge][0] < box:
            _, begins, name, invisible = edges[edge]
            if begins:
                environments.append((name, invisible))
            elif any(open_name == name for open_name, _ in environments):
                while environments and environments.pop()[0] != name:
                    pass  # an \end closes its own environment and those left open in it
            edge += 1
        if box in hidden_groups or any(n in hiding or dark for n, dark in environments):
            brace = text.find("{", box)
            end = matching_brace(text, brace + 1) if brace >= 0 else None
            yield box, len(text) if end is None else end + 1


def _boxes_in_hidden_groups(text: str, boxes: set[int]) -> set[int]:
    """The boxes (their starts) inside a brace group whose command is not known to show it:
    one pass over the text, a stack of the open groups (a bare group shows its content)."""
    hidden: set[int] = set()
    recoloured = "sethlcolor" in text  # a highlight colour set by the output may be the text's
    defined = _defined_names(text)
    title_shown = max((m.start() for m in _TITLE_SHOWN.finditer(text)), default=-1)
    stack: list[bool] = []  # for each open group, whether it shows its content
    closed = 0  # open groups that do not
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\":
            if index in boxes and closed:
                hidden.add(index)
            index += 2
            continue
        if char == "{":
            owner = _OWNER.search(text, max(0, index - _OWNER_WINDOW), index)
            name = owner.group("name") if owner is not None else None
            shows = name is None or (
                name in _SHOWN_COMMANDS
                and not (name in _HIGHLIGHTS and recoloured)
                and name not in defined
                and not (name in _STORED and index > title_shown)
                and not (name in _CLASS_COMMANDS and _hiding_class_argument(owner))
            )
            stack.append(shows)
            closed += not shows
        elif char == "}" and stack:
            closed -= not stack.pop()
        index += 1
    return hidden


# ---------------------------------------------------------------------------------------------
# the eighth red-team round (overprints, redefinitions, skips that add up,
# stored titles, loop bodies, code blocks beside the answer, hiding classes)
# ---------------------------------------------------------------------------------------------

_BOX_NAMES = frozenset({"boxed", "fbox", "framebox"})  # their redefinition is visibility.py's
# \\title only stores its argument: it is typeset by \\maketitle (beamer: \\titlepage)
_STORED = frozenset({"title"})
_TITLE_SHOWN = re.compile(r"\\(?:maketitle|titlepage|inserttitle)(?![a-zA-Z])")
# MathJax and KaTeX commands that give their second argument the classes in their first
_CLASS_COMMANDS = frozenset({"class", "htmlClass"})
# a class named to hide its element in the usual stylesheets: Bootstrap's "d-none",
# "d-md-none", "invisible", "collapse", "visually-hidden"; "sr-only", "screen-reader-text",
# "hidden", "is-hidden", "hide", "hidden-xs"; Tailwind's "opacity-0", "text-transparent"
# (not "overflow-hidden", "border-none", "bg-transparent", "border-collapse": they show it)
_HIDING_CLASS = re.compile(
    r"(?:[\w-]*[-_])?(?:hidden|hide|invisible)(?:[-_][\w-]*)?|d(?:-\w+)?-none|display-none"
    r"|sr[-_]only[\w-]*|screen-?readers?(?:[-_][\w-]*)?|off-?screen|collapse|opacity-0"
    r"|text-transparent|assistive-text|spoiler",
    re.IGNORECASE,
)
# an HTML element with classes: <span class="sr-only">, <div className='d-none'>
_CLASSED = re.compile(
    r"<(?P<tag>[A-Za-z][\w-]*)\b[^<>]*?\bclass(?:Name)?\s*=\s*"
    r"(?:(?P<q>[\"'])(?P<names>.*?)(?P=q)|(?P<bare>[^\s<>\"']+))[^<>]*>",
    re.IGNORECASE | re.DOTALL,
)


def _hiding_class_argument(owner: re.Match[str] | None) -> bool:
    """Whether ``\\class{sr-only}{`` names a class that hides: its first braced argument."""
    names = re.search(r"\{([^{}]*)\}", owner.group()) if owner is not None else None
    return names is not None and _hiding_classes(names.group(1))


def _hiding_classes(names: str) -> bool:
    """Whether a list of classes holds one that hides (``_HIDING_CLASS``)."""
    return any(
        _HIDING_CLASS.fullmatch(name) and not name.casefold().startswith("overflow")
        for name in names.split()
    )


_BOX_REACH = 100  # "\\boxed [opt] {": how far a box's argument may open after its name


def _box_spans(text: str) -> list[tuple[int, int]]:
    """Each box's start and the end of its argument (the text's end where it never closes)."""
    spans = []
    partners = brace_partners(text) if "\\" in text else {}
    for box in _BOXED.finditer(text):
        brace = text.find("{", box.end(), box.end() + _BOX_REACH)
        end = partners.get(brace) if brace >= 0 else None
        spans.append((box.start(), len(text) if end is None else end + 1))
    return spans


_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


def _paragraph(text: str, position: int) -> tuple[int, int]:
    """The paragraph around ``position``: how far one drawing laid over another can reach."""
    starts, ends = _paragraph_breaks(text)
    index = bisect_right(ends, position)
    return ends[index - 1] if index else 0, starts[index] if index < len(starts) else len(text)


@lru_cache(maxsize=4)
def _paragraph_breaks(text: str) -> tuple[list[int], list[int]]:
    """Where the blank lines between paragraphs start and end: found once per text, so
    each rule asks for a paragraph by bisection, not by reading the text again."""
    breaks = [m.span() for m in _PARAGRAPH_BREAK.finditer(text)]
    return [start for start, _ in breaks], [end for _, end in breaks]


# --- skips -------------------------------------------------------------------------------------

# One move along the line: a primitive and its length ("\\kern250pt", "\\mskip 2000mu",
# "\\hskip 2\\hsize", "\\kern\\paperwidth"), a command with a length argument
# ("\\hspace{1.5\\linewidth}"; a "\\rule{10cm}{0pt}" is as wide as its first argument),
# a named space ("\\qquad", "\\!", "~").
_MOVE = re.compile(
    r"\\(?P<primitive>kern|hskip|mkern|mskip|moveright|moveleft|raise|lower|vskip)(?![a-zA-Z])"
    r"\s*=?\s*(?P<length>[-+]?\s*(?:\d+\.?\d*|\.\d+)?\s*(?:(?:true)?(?:pt|cm|mm|in|em|ex|bp|pc"
    r"|dd|cc|sp|px|mu)|\\[A-Za-z@]+))"
    r"|\\(?P<command>[hv]space|rule)\*?\s*(?:\[[^\]]*\])?\s*\{(?P<argument>[^{}]*)\}"
    r"|\\(?P<named>qquad|quad|enspace|enskip|thinspace|negthinspace|medspace|negmedspace"
    r"|thickspace|negthickspace)(?![a-zA-Z])|\\(?P<symbol>[,:;>! ])|(?P<tie>~)"
)
_NAMED_SPACES = {
    "qquad": 20.0, "quad": 10.0, "enspace": 5.0, "enskip": 5.0, "thinspace": 1.67,
    ",": 1.67, "negthinspace": -1.67, "!": -1.67, "medspace": 2.22, ":": 2.22, ">": 2.22,
    "negmedspace": -2.22, "thickspace": 2.78, ";": 2.78, "negthickspace": -2.78, " ": 3.33,
    "~": 3.33,
}  # fmt: skip
# one term of a length: "-1.5\\linewidth", "250pt", "2000mu", "\\dimexpr"
_TERM = re.compile(
    r"(?P<sign>[-+]?)(?P<number>\d+\.?\d*|\.\d+)?(?:true)?"
    r"(?:(?P<unit>pt|cm|mm|in|em|ex|bp|pc|dd|cc|sp|px|mu)|\\(?P<name>[A-Za-z@]+))"
)
_STRETCH = re.compile(r"\b(?:plus|minus)\b.*", re.DOTALL)  # glue's stretch: no move by itself
_MU_POINTS = 10.0 / 18  # 18 mu make an em
# lengths a reader knows by name: the page's (far), small ones, and words that move nothing
_NAMED_POINTS = {
    "paperwidth": 614.0, "pagewidth": 614.0, "paperheight": 795.0, "pageheight": 795.0,
    "textwidth": 345.0, "linewidth": 345.0, "columnwidth": 345.0, "hsize": 345.0,
    "displaywidth": 345.0, "textheight": 550.0, "vsize": 550.0, "maxdimen": 16383.0,
    "parindent": 15.0, "baselineskip": 12.0, "fboxsep": 3.0, "fboxrule": 0.4,
    "tabcolsep": 6.0, "arraycolsep": 5.0, "labelsep": 5.0, "jot": 3.0, "parskip": 0.0,
    "smallskipamount": 3.0, "medskipamount": 6.0, "bigskipamount": 12.0, "lineskip": 1.0,
    "thinmuskip": 1.67, "medmuskip": 2.22, "thickmuskip": 2.78, "itemsep": 4.0, "topsep": 8.0,
    "fill": 0.0, "fil": 0.0, "filll": 0.0, "stretch": 0.0, "dimexpr": 0.0, "glueexpr": 0.0,
    "relax": 0.0, "z@": 0.0, "p@": 1.0,
}  # fmt: skip
_UNKNOWN_POINTS = 10 * _FAR_POINTS  # a register the output may have set itself: far
_VERTICAL = frozenset({"raise", "lower", "vskip", "vspace"})
# where a line of the page ends, and skips stop adding up: a paragraph, a line break, a
# display's edges, an environment's, a newline outside a display (``_line_ends``)
_LINE_BREAK = re.compile(
    r"\n[ \t]*\n|\\\\|\\(?:par|newline|linebreak|cr)(?![a-zA-Z])|\$\$|\\[\[\]]"
    r"|\\(?:begin|end)\s*\{|\n"
)
_DISPLAY = (("$$", "$$"), ("\\[", "\\]"))  # a newline in one is a space
_OVERLAP_POINTS = 10.0  # a move back of an em draws what follows over what precedes


def _length_points(spec: str) -> float:
    """A length in points with its sign, as the page takes it: its stretch dropped ("0pt
    plus 1fill" moves nothing at the least), its terms added ("\\dimexpr 200pt+200pt"),
    mu read as 1/18 em, a page dimension at its usual size, an unknown register as far
    (the output may have set it itself)."""
    total = 0.0
    for term in _TERM.finditer(_STRETCH.sub("", spec).replace(" ", "")):
        factor = float(term.group("number") or 1.0) * (-1 if term.group("sign") == "-" else 1)
        unit, name = term.group("unit"), term.group("name")
        if unit == "mu":
            total += factor * _MU_POINTS
        elif unit is not None:
            total += factor * (points(f"1{unit}") or 0.0)
        else:
            total += factor * _NAMED_POINTS.get(name, _UNKNOWN_POINTS)
    return total


def _move_points(move: re.Match[str]) -> tuple[float, bool]:
    """How far one move (``_MOVE``) goes, with its sign, and whether it goes up or down."""
    if move.group("named") or move.group("symbol") or move.group("tie"):
        name = move.group("named") or move.group("symbol") or move.group("tie")
        return _NAMED_SPACES[name], False
    kind = move.group("primitive") or move.group("command")
    length = _length_points(move.group("length") or move.group("argument") or "")
    return (-length if kind == "moveleft" else length), kind in _VERTICAL


def _line_ends(text: str) -> list[int]:
    """Where the lines of the page end (``_LINE_BREAK``), and the text: a newline ends one
    too, except inside a display, where it is a space."""
    displays = delimited_spans(text, _DISPLAY) if "$$" in text or "\\[" in text else []
    starts = [start for start, _ in displays]

    def in_display(position: int) -> bool:
        index = bisect_right(starts, position) - 1
        return index >= 0 and position < displays[index][1]

    ends = [
        m.start()
        for m in _LINE_BREAK.finditer(text)
        if m.group() != "\n" or not in_display(m.start())
    ]
    return [*ends, len(text)]


def _runs(text: str, ends: list[int]) -> Iterator[tuple[int, int, float]]:
    """Moves side by side on one line of the page (nothing but spaces between them): each
    run's start, end and horizontal sum. A move up or down counts as a page where it is far
    alone, as nothing where it is not."""
    run: list[float] = []  # start, end, sum
    for move in _MOVE.finditer(text):
        value, vertical = _move_points(move)
        if vertical:
            value = _UNKNOWN_POINTS if abs(value) >= _FAR_POINTS else 0.0
        line = bisect_right(ends, move.start())
        if (
            run
            and line == bisect_right(ends, int(run[0]))
            and not text[int(run[1]) : move.start()].strip()
        ):
            run[1:] = [move.end(), run[2] + value]
            continue
        if run:
            yield int(run[0]), int(run[1]), run[2]
        run = [move.start(), move.end(), value]
    if run:
        yield int(run[0]), int(run[1]), run[2]


def _far_moves(text: str, boxes: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """What stands after a line of the page has moved ``_FAR_POINTS`` is off the page.
    Moves along a line add up: in a display nothing breaks, so 45 ``\\qquad`` or three
    ``\\kern250pt`` carry a box as far as one ``\\kern750pt``, and ``\\hspace{\\paperwidth}``
    is a page. A run of moves under an em (``\\,``, ``~~``) is ordinary spacing and adds
    nothing. A move back of an em or more right after a box (math openings and a group's
    brace between them too, not a display's ``$$``: that starts a line) draws what follows
    over it (``\\boxed{A}$\\kern-3em\\boxed{C}$``): its paragraph's boxes are no answer."""
    if "\\" not in text and "~" not in text:
        return
    ends = _line_ends(text)
    box_ends = {end for _, end in boxes}
    line, total = -1, 0.0
    for start, end, value in _runs(text, ends):
        here = bisect_right(ends, start)
        if here != line:
            line, total = here, 0.0
        before = total
        total += value if abs(value) >= _OVERLAP_POINTS else 0.0
        if abs(total) >= _FAR_POINTS > abs(before):
            yield end, ends[here]
        back = _before_spaces(text, start)  # over "$", "\\(" and "{": one line still
        if value <= -_OVERLAP_POINTS and back in box_ends and "$$" not in text[back:start]:
            yield _paragraph(text, start)


# --- redefinitions -----------------------------------------------------------------------------

# A definition of a command: what it prints is then the output's choice
# ("\\def\\text#1{True}", "\\renewcommand{\\frac}[2]{#2/#1}", "\\let\\sqrt\\relax",
# "\\DeclareRobustCommand\\x", "\\mathchardef\\x"); ``parameters`` is what stands between the
# name and the body ("[2]", "#1#2", "\\relax").
_DEFINITION = re.compile(
    r"\\(?P<kind>(?:re)?newcommand|providecommand|DeclareRobustCommand"
    r"|(?:New|Renew|Provide|Declare)(?:Expandable)?DocumentCommand|DeclareMathOperator"
    r"|DeclarePairedDelimiter\w*|[gex]?def|let|futurelet|(?:math)?chardef|countdef|dimendef"
    r"|skipdef|toksdef)\*?\s*\{?\s*\\(?P<name>[A-Za-z@]+)\s*\}?(?P<parameters>[^{\n]{0,40})"
)
# what an expanded definition's parameters may be: none, or one argument ("[1]") read in
# place by visibility.py; anything else takes arguments the reader does not see
_NO_ARGUMENTS = re.compile(r"\s*(?:\[\s*[01]\s*\])?\s*")
_DELIMITED = re.compile(r"[^#\d\s]")  # "\\def\\x#1.{…}": an argument up to a mark, any length


def _defined_names(text: str) -> frozenset[str]:
    """The commands the output defines (not the box's own: visibility.py's)."""
    return frozenset(m.group("name") for m in _DEFINITION.finditer(text)) - _BOX_NAMES


def _takes_arguments(definition: re.Match[str]) -> bool:
    """Whether a defined command takes what follows it beyond one braced argument: a
    ``\\let`` (to a command that may: ``\\let\\x\\@gobble``), parameters of a ``\\def``, two
    or more or optional ones (``[2]``, ``[1][x]``), a document command's argument
    specification. visibility.py expands the rest (a body, one argument) where they stand."""
    kind, parameters = definition.group("kind"), definition.group("parameters")
    if kind in ("let", "futurelet", "DeclareRobustCommand") or "DocumentCommand" in kind:
        return True
    if kind.endswith("def") and kind not in ("chardef", "mathchardef", "countdef"):
        return "#" in parameters
    if kind in ("newcommand", "renewcommand", "providecommand"):
        return _NO_ARGUMENTS.fullmatch(parameters) is None
    return False


def _redefined(text: str, boxes: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """Boxes whose print a definition in the output may change. A box that uses a command
    the output defines (``\\boxed{\\frac{BLv}{R}}`` after ``\\renewcommand{\\frac}[2]{#2/#1}``,
    ``\\boxed{\\text{False}}`` after ``\\def\\text#1{True}``), or after a use in its paragraph
    (or right before it) of one that takes arguments: they may reach the box, or be it. A
    definition without them is expanded where it is used (visibility.py). A parameter up to
    a mark (``\\def\\x#1.{}``) may take any stretch of text: nothing after it counts. A group
    a defined command owns is ``_boxes_in_hidden_groups``'."""
    definitions = [m for m in _DEFINITION.finditer(text) if m.group("name") not in _BOX_NAMES]
    if not definitions:
        return
    for definition in definitions:
        parameters = definition.group("parameters").split("{")[0]
        delimited = "#" in parameters and _DELIMITED.search(parameters) is not None
        if definition.group("kind").endswith("def") and delimited:
            yield definition.start(), len(text)
    uses = _uses(definitions)
    greedy = _uses([m for m in definitions if _takes_arguments(m)])
    sites = {m.start("name") - 1 for m in definitions}  # a definition names, it does not use
    taking = [m.span() for m in greedy.finditer(text)] if greedy is not None else []
    taking = [span for span in taking if span[0] not in sites]
    first = min(m.start() for m in definitions)
    for start, end in boxes:
        argument = text.find("{", start, end)
        inside = argument >= 0 and uses is not None and uses.search(text, argument, end)
        if end > first and (inside or _reached(text, start, taking)):
            yield start, end


def _uses(definitions: list[re.Match[str]]) -> re.Pattern[str] | None:
    """A pattern for a use of any command these definitions define (None for none)."""
    names = sorted({re.escape(definition.group("name")) for definition in definitions})
    return re.compile(rf"\\(?:{'|'.join(names)})(?![A-Za-z@])") if names else None


def _reached(text: str, box: int, taking: list[tuple[int, int]]) -> bool:
    """Whether a use of a command that takes arguments (``taking``, in order) may take the
    box: the last one before it is in its paragraph, or right before it across a blank line
    (``\\x\\n\\n\\boxed{…}``). Found by bisection: one pass over all boxes."""
    index = bisect_left(taking, (box, box)) - 1
    if index < 0:
        return False
    use_start, use_end = taking[index]
    return use_start >= _paragraph(text, box)[0] or use_end == _before_spaces(text, box)


def _before_spaces(text: str, position: int, marks: str = "${") -> int:
    """Where the text before ``position`` stops being spaces (and ``marks``, and math
    openings, by default: ``\\x $\\boxed``, ``\\x{\\boxed``, ``\\x \\(\\boxed``, where a command
    takes what follows)."""
    while position > 0:
        if text[position - 1].isspace() or text[position - 1] in marks:
            position -= 1
        elif marks and position > 1 and text[position - 2] == "\\" and text[position - 1] in "([":
            position -= 2
        else:
            break
    return position


# --- overprints --------------------------------------------------------------------------------

# A command that draws its argument without taking its width, over what stands beside it:
# "\\llap{…}" and "\\mathllap{…}" reach left, "\\rlap" right, "\\clap" both ways; so does a
# "\\makebox[0pt][r]{…}" or "\\hbox to 0pt{…}" narrower than an em (its content overflows),
# and a picture's "\\put(0,0){…}" or "\\makebox(0,0){…}" anywhere. A "\\smash{…}" or a
# "\\raisebox{1em}[0pt]{…}" takes its width but no height: it reaches the lines around it.
_OVERPRINT = re.compile(
    r"\\(?:(?:math)?(?P<lap>[lrc])lap|makebox\s*\[(?P<width>[^\]]*)\](?:\s*\[(?P<align>[^\]]*)\])?"
    r"|hbox\s*to\s*(?P<to>[^{]{0,30}?)|(?P<picture>put\s*\([^()]*\)|makebox\s*\([^()]*\))"
    r"|(?P<flat>smash|raisebox\s*\{[^{}]*\}\s*\[[^\]]*\])(?:\s*\[[^\]]*\])*)\s*\{"
)
# content that paints over what is under it: a background, a rule, a drawing
_PAINTS = re.compile(
    r"\\(?:f?colorbox|rule|bbox|highlight|hl|tikz|fill|pgf\w*|pagecolor)(?![a-zA-Z])"
    r"|background",
    re.IGNORECASE,
)
# content that draws nothing: "\\strut", "\\quad", "{}"
_BLANK = re.compile(r"(?:\s|[{}$~]|\\(?:strut|quad|qquad|hss|hfil|hfill|[,;:! ])(?![a-zA-Z]))*")
_BESIDE = re.compile(r"(?:\s|\$|\\[,;:! ])*")  # what may stand between a box and an overprint
_MAX_NESTED = 4  # boxes before an overprint read for one around it or right against it


def _reach(overprint: re.Match[str]) -> str:
    """The sides an overprint reaches over ("l", "r", both; "v" for the lines above and
    below), or "" where it takes its room."""
    if overprint.group("lap"):
        return {"l": "l", "r": "r", "c": "lr"}[overprint.group("lap")]
    if overprint.group("picture") or overprint.group("flat"):
        return "lr" if overprint.group("picture") else "v"  # "v": up or down, not beside
    width = overprint.group("width")
    width = overprint.group("to") if width is None else width
    if abs(_length_points(width)) >= _OVERLAP_POINTS or not _TERM.search(width.replace(" ", "")):
        return ""
    align = overprint.group("align") or ""
    return "l" if "r" in align else "r" if "l" in align else "lr"


def _overprinted(text: str, boxes: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """Boxes that a drawing laid over them leaves unreadable as the answer. A box in an
    overprint beside another box of its paragraph: the reader sees one drawn over the other,
    whichever the verifier would take (``\\boxed{A}\\llap{\\colorbox{white}{$\\boxed{C}$}}``
    shows C), so none of them counts. An overprint that paints (``\\colorbox``) in a
    paragraph with a box, or that draws anything in a box or right against one on the side
    it reaches (``\\boxed{0.154}\\llap{0.308}``), covers it. A label an overprint sets away
    from any box (``\\llap{(a)\\quad} v = \\boxed{…}``, ``\\boxed{B}\\rlap{\\quad\\checkmark}``)
    is left alone."""
    if not boxes or not any(word in text for word in ("lap", "box", "put", "smash")):
        return
    starts = [start for start, _ in boxes]
    for overprint in _OVERPRINT.finditer(text):
        reach = _reach(overprint)
        close = matching_brace(text, overprint.end()) if reach else None
        if not reach:
            continue
        stop = len(text) if close is None else close + 1
        content = text[overprint.end() : stop - 1]
        paragraph = _paragraph(text, overprint.start())
        in_paragraph = bisect_left(starts, paragraph[1]) - bisect_left(starts, paragraph[0])
        in_overprint = bisect_left(starts, stop) - bisect_left(starts, overprint.start())
        if in_paragraph == in_overprint:
            continue  # no box beside it
        if _BOXED.search(content) or _PAINTS.search(content):
            yield paragraph
        elif not _BLANK.fullmatch(content):
            yield from _covered(text, boxes, starts, (overprint.start(), stop), reach)


def _covered(
    text: str,
    boxes: list[tuple[int, int]],
    starts: list[int],
    overprint: tuple[int, int],
    reach: str,
) -> Iterator[tuple[int, int]]:
    """The boxes an overprint from ``overprint[0]`` to ``overprint[1]`` draws over: one
    around it, the last one before it, the first one after it, right against it on a side
    it reaches. ``starts`` are the boxes' starts, in order."""
    start, stop = overprint
    before = bisect_left(starts, start)
    for box_start, box_end in boxes[max(0, before - _MAX_NESTED) : before]:
        if box_end >= stop:
            yield box_start, box_end  # the overprint is inside the box
        elif "l" in reach and _BESIDE.fullmatch(text, box_end, start) is not None:
            yield box_start, box_end
    after = bisect_left(starts, stop)
    if "r" in reach and after < len(boxes) and _BESIDE.fullmatch(text, stop, starts[after]):
        yield boxes[after]


# --- loops -------------------------------------------------------------------------------------

# A loop typesets its body once per item of its list, with the loop variable put in: none
# for "{}" (or pgffor's "{1,...,0}"), and the count is read from code, not seen
# ("\\foreach \\x in {} {…}", tikz's "\\foreach \\i in {1,2} \\node {…};")
_FOREACH = re.compile(
    r"\\(?:foreach|pgfplotsforeachungrouped)(?![a-zA-Z])\s*(?:\[[^\]]*\]\s*)?"
    r"\\[A-Za-z@]+\s*(?:/\s*\\[A-Za-z@]+\s*)*(?:\[[^\]]*\]\s*)?in\s*"
    r"(?:\{(?:[^{}]|\{[^{}]*\})*\}|\\[A-Za-z@]+)\s*"
)
_PLAIN_LOOP = re.compile(r"\\loop(?![a-zA-Z]).*?(?:\\repeat(?![a-zA-Z])|\Z)", re.DOTALL)


def _loop_bodies(text: str) -> Iterator[tuple[int, int]]:
    """The bodies of loops (``_FOREACH``, plain TeX's ``\\loop … \\repeat``): a box in one
    is drawn as many times as the list says, maybe never, so it is no answer."""
    if "\\foreach" not in text and "\\loop" not in text and "foreachungrouped" not in text:
        return
    for loop in _FOREACH.finditer(text):
        if text.startswith("{", loop.end()):
            close = matching_brace(text, loop.end() + 1)
            yield loop.start(), len(text) if close is None else close + 1
        else:  # one statement, up to its ";"
            statement = text.find(";", loop.end())
            yield loop.start(), _paragraph(text, loop.end())[1] if statement < 0 else statement
    yield from (m.span() for m in _PLAIN_LOOP.finditer(text))


# --- code blocks -------------------------------------------------------------------------------

# a Markdown fenced code block: "```latex … ```" (closed on its own line or the same one, as
# visibility.py reads it), "~~~ … ~~~" from the start of a line
_FENCED = re.compile(
    r"(?P<ticks>`{3,}).*?(?:(?P=ticks)|\Z)"
    r"|^[ \t]{0,3}(?P<tildes>~{3,}).*?(?:^[ \t]{0,3}(?P=tildes)|\Z)",
    re.DOTALL | re.MULTILINE,
)
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)  # no box in one is seen at all
_INDENT = re.compile(r" {4}| {0,3}\t")  # an indented code block's line starts so
_LIST_ITEM = re.compile(r" {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")  # "- ", "2. ", "3) "
_SPACING = re.compile(r"\s+|\\[,;:! ]")  # how a box's content may be spaced: no other value


def _indented_blocks(text: str, fenced: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """Markdown's indented code blocks: lines indented four spaces (or a tab) after a blank
    line, outside a fence and outside a list (where they continue an item)."""
    position, blank_before, in_list = 0, True, False
    block: list[int] = []  # the open block's start and end
    for line in text.splitlines(keepends=True):
        start, position = position, position + len(line)
        fence = _inside(start, fenced)
        if not line.strip() and not fence:
            blank_before = True
            continue
        indented = not fence and _INDENT.match(line) is not None
        if indented and (block or (blank_before and not in_list)):
            block = [block[0] if block else start, position]
        else:
            if block:
                yield block[0], block[1]
                block = []
            if not indented:
                in_list = _LIST_ITEM.match(line) is not None or (in_list and not blank_before)
        blank_before = False
    if block:
        yield block[0], block[1]


def _environments(text: str) -> list[tuple[int, int]]:
    """The stretches inside LaTeX environments (outermost ones, in order), where indenting is
    layout (``\\begin{enumerate}\n\n    \\item …``), not Markdown code."""
    stretches, depth, opened = [], 0, 0
    for edge in _ENVIRONMENT.finditer(text):
        if edge.group("edge") == "begin":
            opened = edge.start() if depth == 0 else opened
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                stretches.append((opened, edge.end()))
    return stretches + ([(opened, len(text))] if depth else [])


def _inside(position: int, stretches: list[tuple[int, int]]) -> bool:
    """Whether ``position`` is in one of ``stretches`` (in order, apart)."""
    index = bisect_right(stretches, (position, sys.maxsize)) - 1
    return index >= 0 and position < stretches[index][1]


def _disagreeing_code(text: str, boxes: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """A box in a code block is shown as source, not drawn. It counts as an answer where
    no box stands outside code ("```latex \\boxed{14.5}```" alone), or where it says what the
    boxes outside say ("```\\nFinal answer: \\boxed{29}\\n```" after ``\\boxed{29}``). One
    that says something else beside a box outside leaves the reader two answers, one of them
    raw source, and the verifier would judge whichever comes last: then no box counts."""
    if len(boxes) < 2 or not any(mark in text for mark in ("```", "~~~", "    ", "\t")):
        return
    comments = [m.span() for m in _HTML_COMMENT.finditer(text)] if "<!--" in text else []
    shown = [box for box in boxes if not _inside(box[0], comments)]
    fenced = [m.span() for m in _FENCED.finditer(text)]
    environments = _environments(text) if "\\begin" in text else []
    code = sorted(
        fenced
        + [block for block in _indented_blocks(text, fenced) if not _inside(block[0], environments)]
    )
    inside = [box for box in shown if _inside(box[0], code)]
    outside = {_said(text, box) for box in shown if box not in inside}
    if inside and outside and not {_said(text, box) for box in inside} <= outside:
        yield 0, len(text)


def _said(text: str, box: tuple[int, int]) -> str:
    """A box's content normalised and without its spacing, to tell whether two boxes say the
    same (``14.5\\,\\mathrm{m/s}`` and ``14.5 m/s`` do)."""
    argument = text.find("{", box[0], box[1])
    content = text[argument + 1 : box[1] - 1] if argument >= 0 else ""
    return _SPACING.sub("", normalize_answer(content)).replace(" ", "")
