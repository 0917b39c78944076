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
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from studybench.data.boxes import matching_brace
from studybench.verify.lengths import points

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
# after these, a reader cannot tell what TeX typesets: category codes changed, the job ended
_UNREADABLE_AFTER = re.compile(
    r"\\catcode(?![a-zA-Z])|\\csname\s*@@end\s*\\endcsname|\\@@end(?![a-zA-Z])"
    r"|\\end(?![a-zA-Z{\s])|\\end\s*(?:\n|$)"
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
# a skip or shift of at least _FAR_POINTS right before a box: the box leaves the page
_SKIP = re.compile(
    r"\\(?:kern|hskip|moveright|moveleft|raise|lower|hspace\*?\s*\{|vspace\*?\s*\{)\s*"
    r"(?P<length>-?\s*\d*\.?\d+\s*(?:pt|cm|mm|in|em|ex|bp|pc|dd|cc|sp|px))\s*\}?"
)
_FAR_POINTS = 300.0  # about 10.5 cm
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
    for skip in _SKIP.finditer(text):
        if _far(skip.group("length")):
            line_end = text.find("\n", skip.end())
            yield skip.end(), len(text) if line_end < 0 else line_end
    if "<" in text:
        for element in _CODE_ELEMENTS.finditer(text):
            summary = _SUMMARY_END.search(element.group()) if element.group("folded") else None
            yield element.start() + (summary.end() if summary else 0), element.end()
        for element in _STYLED.finditer(text):
            if not _plain_style(element.group("style")):
                close = re.compile(rf"</{re.escape(element.group('tag'))}\s*>", re.I)
                end = close.search(text, element.end())
                yield element.start(), len(text) if end is None else end.end()
    yield from (m.span() for m in _SPOILERS.finditer(text))
    if "[^" in text:
        for note in _FOOTNOTE.finditer(text):
            reference = f"[^{note.group('label')}]"
            elsewhere = text[: note.start()] + text[note.end() :]
            if reference not in elsewhere:
                yield note.span()


def _far(length: str) -> bool:
    return (points(length.replace(" ", "")) or 0.0) >= _FAR_POINTS


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
                name in _SHOWN_COMMANDS and not (name in _HIGHLIGHTS and recoloured)
            )
            stack.append(shows)
            closed += not shows
        elif char == "}" and stack:
            closed -= not stack.pop()
        index += 1
    return hidden
