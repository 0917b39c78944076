"""What a reader of an output does not see, and the boxes the output itself takes back.

The verifier pays for the answer a reader would take from the rendered output: its last box.
Model output is hostile (it is the RL reward), so the last box must be one the reader sees
and the output stands behind. Three rules, each its own case table
(``tests/verify/cases/sound_hidden_boxes.jsonl``, ``sound_disowned_boxes.jsonl``,
``sound_hedged_boxes.jsonl``):

* **Hidden content is not there.** Comments (``%`` to the end of the line, ``\\iffalse …
  \\fi``, ``\\begin{comment}``, ``<!-- … -->``), invisible or struck-out groups
  (``\\phantom``, ``\\cancel`` and its kin, ``\\sout``, ``<del>``, Markdown ``~~…~~``), text
  in an invisible colour (white or transparent) and verbatim text (``\\verb|…|``: a box shown
  as code is no box) are removed before boxes are looked for. Removing more can only lose a
  box, never add one, so each rule errs on the safe side.
* **A disowned box is no answer.** A box right after a denial ("it is not", "wrong:",
  ``\\neq``, "instead of") or right before one ("is wrong", "(incorrect)") is dropped.
* **A hedge must hold throughout.** Boxes joined to the last one by "or", "maybe", "/" are
  several claims about one answer: each of them must be right (:func:`hedged`), and an answer
  of ``k`` values (an ALT, a gold of several boxes) may offer no more than ``k``.

The cost is linear in the text (64 KB at most, see ``extract.MAX_INPUT_CHARS``).
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterator
from colorsys import hls_to_rgb, hsv_to_rgb
from itertools import pairwise, takewhile

from studybench.data.boxes import delimited_spans, matching_brace, scan_boxes
from studybench.verify.lengths import points as _points
from studybench.verify.number_words import ROMAN_NUMERALS, numbers_in_digits
from studybench.verify.restatement import CONCLUSION_LABELS, INTERJECTIONS

# ---------------------------------------------------------------------------------------------
# hidden content
# ---------------------------------------------------------------------------------------------

# groups whose argument is not shown, or shown struck out: the argument goes
_HIDING_COMMANDS = re.compile(
    r"\\(?:[hv]?phantom|cancel|bcancel|xcancel|sout|st|xout|hout|cancelto\s*\{[^{}]*\}"
    # struck out with options (\\hcancel[red]{…}), MathJax's struck enclosures
    r"|hcancel(?:\s*\[[^\]]{0,40}\])*|strikethrough|strikeout"
    r"|enclose\s*\{[^{}]*strike[^{}]*\}(?:\s*\[[^\]]{0,80}\])?"
    # transparent text: \\texttransparent{0}{…} (below 0.1 of full opacity)
    r"|texttransparent\s*\{\s*(?:0*\.?0*|0*\.0\d*)\s*\}"
    # cropped away: \\clipbox, \\trimbox, \\adjustbox{clip, trim=…}
    r"|(?:clipbox|trimbox)\*?\s*\{[^{}]*\}"
    r"|adjustbox\s*\{[^{}]*(?:clip|trim|viewport)[^{}]*\}"
    # a box register filled and never shown (\\setbox0=\\hbox{…}; see ``_UNTYPESET``)
    r"|[gx]?setbox\s*(?:\d+|\\[A-Za-z@]+)\s*=?\s*\\(?:hbox|vbox|vtop|vcenter)"
    r"(?:\s*(?:to|spread)\s*[\w.\\]{1,30})?"
    r"|scalebox\s*\{\s*0*(?:\.0*)?\s*\}|resizebox\s*\{\s*0+(?:\.0*)?\s*(?:pt|em|ex|cm|mm|in)?"
    r"\s*\}\s*\{[^{}]*\}"
    # a macro's definition is not shown where it stands (\\newcommand{\\a}[1]{…}, \\def\\a#1{…})
    r"|(?:re)?newcommand\*?\s*(?:\{\s*\\[A-Za-z@]+\s*\}|\\[A-Za-z@]+)\s*(?:\[\d\])?\s*(?:\[[^\]]*\])?"
    r"|providecommand\*?\s*(?:\{\s*\\[A-Za-z@]+\s*\}|\\[A-Za-z@]+)\s*(?:\[\d\])?"
    r"|[gex]?def\s*\\[A-Za-z@]+(?:\s*#\d)*"
    r"|DeclareMathOperator\*?\s*\{\s*\\[A-Za-z@]+\s*\}"
    r"|(?:New|Renew|Provide|Declare)DocumentCommand\s*\{\s*\\[A-Za-z@]+\s*\}\s*\{[^{}]*\}"
    # CSS on a group (KaTeX \\htmlStyle, MathJax \\style) that hides it, a CSS class
    r"|(?:htmlStyle|style)\s*\{[^{}]*(?:display|visibility|opacity|font-size|transform|position"
    r"|clip|text-indent|filter|zoom|scale|translate|margin)[^{}]*\}"
    r"|scalebox\s*\{\s*0?\.0\d*\s*\}|fontsize\s*\{\s*0*(?:\.\d*)?\s*(?:pt)?\s*\}\s*\{[^{}]*\})"
    r"\s*(?=\{|\\boxed)"
)
# text on a background: unreadable where the background is dark (black text on black);
# ``\\fcolorbox`` names its frame's colour first, then the background's
_COLOUR_BOX = re.compile(
    r"\\(?:colorbox|fcolorbox\s*(?:\[(?P<frame_model>[^\]]*)\])?\s*\{[^{}]*\})"
    r"\s*(?:\[(?P<model>[^\]]*)\])?\s*\{(?P<spec>[^{}]*)\}\s*(?=\{)"
)
# CSS colour on a group, read by value
_CSS_COLOUR = re.compile(
    r"\\(?:htmlStyle|style)\s*\{[^{}]*?(?<![\w-])color\s*:\s*(?P<spec>[^;{}]+)[^{}]*\}\s*(?=\{)"
)
# \\let, or a redefinition of \\boxed itself: no box in the output can be trusted
_REDEFINED_BOX = re.compile(
    r"\\(?:(?:re)?newcommand\*?|providecommand\*?|[gex]?def|let|(?:Renew|Declare)DocumentCommand)"
    r"\s*\{?\s*\\(?:boxed|fbox|framebox)(?![a-zA-Z])"
)
# A page colour (\\pagecolor{black}): it paints the whole page the text is on, before it
# too, and the text stays black. A colour dark enough to read as text on white makes the page
# unreadable; then nothing counts, as for a redefined \\boxed.
_PAGE_COLOUR = re.compile(r"\\pagecolor\s*(?:\[(?P<model>[^\]]*)\])?\s*\{(?P<spec>[^{}]*)\}")


def _dark_page(text: str) -> bool:
    """Whether a ``\\pagecolor`` in ``text`` paints the page dark (see ``_PAGE_COLOUR``)."""
    return any(
        _visible_colour(m.group("spec"), m.group("model")) for m in _PAGE_COLOUR.finditer(text)
    )


_LET = re.compile(r"\\let\s*\\[A-Za-z@]+\s*=?\s*\\[A-Za-z@]+")
_COLOUR_ARGUMENT = re.compile(
    r"\\(?P<command>textcolor|color|mathcolor)\s*(?:\[(?P<model>[^\]]*)\])?\s*\{(?P<spec>[^{}]*)\}"
)
# Named colours a reader sees on a white page (yellow, cyan, lime: too light); any other colour
# (white, a near-white mix such as white!99 or gray!5, a custom \\definecolor name) may hide
# the text, so it counts as hidden: a whitelist, since every invisible spelling cannot be listed
_VISIBLE_NAMES = frozenset(
    """black red green blue magenta orange purple violet brown teal olive maroon navy gray grey
    darkgray darkgrey crimson indigo darkred darkgreen darkblue darkorange darkviolet
    darkmagenta darkcyan darkslateblue darkslategray darkolivegreen firebrick forestgreen
    royalblue navyblue midnightblue seagreen sepia mahogany bittersweet brickred orangered
    redorange redviolet rubinered violetred mulberry plum orchid rawsienna burntorange
    tealblue pinegreen junglegreen emerald olivegreen blueviolet cornflowerblue mediumblue
    steelblue slateblue saddlebrown sienna chocolate deeppink mediumvioletred
    purple blue2 green4 red3
    cadetblue coral darkgoldenrod darkorchid darkslategrey dimgray dimgrey dodgerblue fuchsia
    hotpink indianred lightcoral lightseagreen lightslategray lightslategrey mediumorchid
    mediumpurple mediumseagreen mediumslateblue olivedrab palevioletred peru rebeccapurple
    rosybrown salmon slategray slategrey tomato""".split()  # CSS names below 0.6 luminance
)
_MIX = re.compile(r"^(?P<name>[a-z]+)(?:!(?P<share>\d+(?:\.\d+)?)(?:!(?P<other>[a-z]+))?)?$")
_HEX = re.compile(r"^#?(?P<hex>[0-9a-f]{3}|[0-9a-f]{6})$")
_NUMBERS = re.compile(r"\d+(?:\.\d*)?|\.\d+")  # "1.2.3" is 1.2 and .3, never a float error
_LIGHT = 0.75  # relative luminance above which a colour is too light to read on white


def _luminance(red: float, green: float, blue: float) -> float:
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def _visible_colour(spec: str, model: str | None) -> bool:
    """Whether text in this colour can be read on a white page: a named base colour (mixed
    with white at 40 % or more of itself, ``red!50``), or a value (``[HTML]{1F3A93}``,
    ``[rgb]{0.2,0,0}``, ``#c00``) darker than :data:`_LIGHT`. Unknown names are not."""
    spec = spec.strip().casefold().replace(" ", "")
    written = (model or "").strip()
    mode = "rgb255" if written == "RGB" else written.casefold()  # RGB: 0-255, rgb: 0-1
    hexed = _HEX.match(spec) if mode in ("", "html") and (mode or spec.startswith("#")) else None
    if hexed is not None:
        digits = hexed.group("hex")
        digits = "".join(c * 2 for c in digits) if len(digits) == 3 else digits
        red, green, blue = (int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4))
        return _luminance(red, green, blue) < _LIGHT
    if mode in ("rgb", "rgb255") or spec.startswith(("rgb(", "rgba(")):
        numbers = [float(v) for v in _NUMBERS.findall(spec)]
        values = numbers[:3]
        if len(numbers) > 3 and numbers[3] < 0.5:
            return False  # rgb(0,0,0,0): a transparent colour shows nothing
        css = spec.startswith("rgb")  # CSS counts 0-255, or in percent (rgb(100%,100%,100%))
        scale = 255.0 if mode == "rgb255" or css or max(values, default=0) > 1 else 1.0
        scale = 100.0 if css and "%" in spec else scale
        return len(values) == 3 and _luminance(*(v / scale for v in values)) < _LIGHT
    if spec.startswith(("hsl(", "hsla(")):  # CSS hue in degrees, saturation and lightness in %
        numbers = [float(v) for v in _NUMBERS.findall(spec)]
        if len(numbers) < 3 or (len(numbers) > 3 and numbers[3] < 0.5):
            return False  # unreadable, or transparent (hsla(0, 0%, 0%, 0))
        hue, saturation, lightness = numbers[0] / 360 % 1, numbers[1] / 100, numbers[2] / 100
        return _luminance(*hls_to_rgb(hue, min(lightness, 1), min(saturation, 1))) < _LIGHT
    if mode == "cmyk":  # xcolor's cmyk: each of c, m, y, k in 0-1
        cyan, magenta, yellow, black = ([*map(float, _NUMBERS.findall(spec)[:4])] + [0.0] * 4)[:4]
        return _luminance(*((1 - v) * (1 - black) for v in (cyan, magenta, yellow))) < _LIGHT
    if mode == "hsb":  # hue, saturation, brightness in 0-1 (HSB: 0-240)
        values = [float(v) for v in _NUMBERS.findall(spec)[:3]]
        scale = 240.0 if written == "HSB" else 1.0
        return len(values) == 3 and _luminance(*hsv_to_rgb(*(v / scale for v in values))) < _LIGHT
    if mode == "gray":  # gray: 0-1; Gray: 0-15
        values = [float(v) for v in _NUMBERS.findall(spec)[:1]]
        scale = 15.0 if written == "Gray" else 1.0
        return bool(values) and values[0] / scale < _LIGHT
    mixed = _MIX.match(spec)
    if mixed is None or mixed.group("name") not in _VISIBLE_NAMES:
        return False
    share = mixed.group("share")
    other = mixed.group("other")
    if share is None:
        return True
    if other is not None and other in _VISIBLE_NAMES:
        return True  # red!50!black: a mix of two dark colours
    return float(share) >= 40


_BLOCK_COMMENTS = re.compile(
    r"<!--.*?(?:-->|\Z)"
    r"|\\iffalse(?![a-zA-Z]).*?(?:\\fi(?![a-zA-Z])|\Z)"
    r"|\\if(?!f(?![a-zA-Z]))[a-zA-Z]*(?![a-zA-Z]).*?(?:\\fi(?![a-zA-Z])|\Z)"
    # the end of the input: nothing after it is typeset (\\end{document}, its starred variant,
    # LaTeX's \\stop and \\enddocument, plain TeX's \\bye, ConTeXt's \\stoptext, \\endinput)
    r"|\\end\s*\{document\*?\}.*|\\(?:endinput|enddocument|stop|stoptext|bye)(?![a-zA-Z@]).*"
    r"|\\@@end(?![a-zA-Z@]).*"
    # a saved box (lrbox) is stored, not shown; beamer's overlay environments show their
    # content on some slides only; filecontents and VerbatimOut write theirs to a file
    r"|\\begin\s*\{(?P<env>comment\*?|verbatim\*?|lstlisting|minted|lrbox|onlyenv|uncoverenv"
    r"|filecontents\*?|VerbatimOut|verbatimwrite"
    r"|visibleenv|invisibleenv|altenv)\}.*?(?:\\end\s*\{(?P=env)\}|\Z)"
    # HTML elements never rendered, and Markdown: code (a box shown as code is no box), an
    # image's alt text, a link's address, a link reference ("[comment]: <> (…)")
    # (an iframe's text, noembed, noframes, a formula's annotation: its source, not its rendering)
    r"|<(?P<raw>template|script|style|noscript|head|title|svg|iframe|noembed|noframes"
    r"|annotation-xml|annotation|datalist)\b.*?(?:</(?P=raw)\s*>|\Z)"
    # (bounded: each of 20,000 "](" on one line read to its end took 2 s)
    r"|!\[[^\]\n]{0,1000}\](?:\([^)\n]{0,1000}\))?|\]\([^)\n]{0,1000}\)"
    r"|^[ \t]*\[(?!\^)[^\]\n]+\]:[ \t]*(?:<[^>\n]*>|[^\s<>]+)"
    r"(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*$",
    re.DOTALL | re.IGNORECASE | re.MULTILINE,
)
# HTML that hides its content: struck out, hidden by an attribute or a style, a collapsed
# <details> block. Attributes are read apart and bounded, so no pattern backtracks.
# An open tag as CommonMark reads raw HTML: a name, then attributes (a name and an optional
# quoted or bare value), then ">" or "/>"; "$v<c$ … $v>c$" is no tag.
_OPEN_TAG = re.compile(
    r"<(?P<tag>[A-Za-z][A-Za-z0-9-]{0,20})(?P<attrs>(?:\s+[A-Za-z_:][\w.:-]{0,40}"
    r"(?:\s*=\s*(?:[^\s\"'=<>`]{1,200}|'[^']{0,300}'|\"[^\"]{0,300}\"))?){0,20})\s*/?>",
)
# Math is typeset, not read as HTML: a "<" inside it starts no tag ("$r<R$", "$x<y and z>w$")
# unless it opens a real HTML element, which a renderer may read first (a "$" miscounted
# elsewhere must not unhide one).
_MATH_DELIMITERS = (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]"))
_ELEMENT = re.compile(
    r"<(?:a|abbr|b|bdi|bdo|big|blink|blockquote|body|br|button|center|cite|code|col|dd|del"
    r"|details|dfn|dialog|div|dl|dt|em|fieldset|figure|font|footer|form|h[1-6]|head|header"
    r"|hr|html|i|iframe|img|input|ins|kbd|label|legend|li|main|mark|marquee|math|meta|meter"
    r"|nav|noscript|object|ol|optgroup|option|output|p|picture|pre|progress|q|rp|rt|ruby|s"
    r"|samp|script|section|select|slot|small|source|span|strike|strong|style|sub|summary|sup"
    r"|svg|table|tbody|td|template|textarea|tfoot|th|thead|time|title|tr|tt|u|ul|var|video"
    r"|wbr|xmp)(?=[\s/>])",
    re.IGNORECASE,
)


def _math_without_tags(region: str) -> str:
    """A math region (or a box's content) with every "<" that opens no real HTML element
    made blank: a known element name whose attributes are HTML's (``name="value"``, or the
    bare ``hidden``/``open``). ``x<a or x>b`` is an inequality, ``<span hidden>`` a tag."""
    return "".join(
        " " if char == "<" and not _real_tag(region, index) else char
        for index, char in enumerate(region)
    )


def _real_tag(text: str, index: int) -> bool:
    if text.startswith("</", index):  # a closing tag of an element
        name = text[index + 2 : index + 32]
        closing = _CUSTOM_CLOSE.match(text, index + 2)  # the whole tag, spaces before ">" too
        return _ELEMENT.match("<" + name) is not None or closing is not None
    tag = _OPEN_TAG.match(text, index)
    if tag is None:
        return False
    if "-" in tag.group("tag"):
        return True  # a custom element (<my-note>): HTML's names, never an inequality's
    if _ELEMENT.match(text, index) is None:
        return False
    if tag.group("tag").casefold() in _HIDING_ELEMENTS:
        return True  # an element that hides whatever its attributes (<del cite>)
    return all(
        value
        or name.casefold() in _BOOLEAN_ATTRIBUTES
        or name.casefold().startswith(("data-", "aria-"))
        for name, value in _ATTRIBUTE.findall(tag.group("attrs"))
    )


_HIDING_ELEMENTS = frozenset(
    "del s strike details dialog template script style noscript head title svg".split()
)
_BOOLEAN_ATTRIBUTES = frozenset(
    "hidden open inert disabled checked selected readonly required multiple autofocus".split()
)


_ATTRIBUTE = re.compile(r"([A-Za-z_:][\w.:-]*)(\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?")
_CUSTOM_CLOSE = re.compile(r"[A-Za-z][A-Za-z0-9]*-[A-Za-z0-9-]*\s*>")
_BOX_OPEN = re.compile(r"\\(?:boxed|fbox)\s*\{")


def _typeset(text: str) -> str:
    """``text`` with the "<" of math and of boxes' contents that opens no HTML element blank."""
    pieces, pos = [], 0
    for start, stop in delimited_spans(text, _MATH_DELIMITERS):
        pieces += [text[pos:start], _math_without_tags(text[start:stop])]
        pos = stop
    text = "".join(pieces) + text[pos:]
    pieces, pos = [], 0
    for box in _BOX_OPEN.finditer(text):
        if box.start() < pos:
            continue
        end = matching_brace(text, box.end())
        end = len(text) if end is None else end
        pieces += [text[pos : box.end()], _math_without_tags(text[box.end() : end])]
        pos = end
    return "".join([*pieces, text[pos:]])


_HIDING_ATTRIBUTE = re.compile(
    r"\bhidden\b|display\s*:\s*none|visibility\s*:\s*hidden|opacity\s*:\s*0?\.?0*\s*(?:[;\"']|$)"
    r"|font-size\s*:\s*0"
    # CSS that hides by other means (a reader's page never needs these around an answer):
    # almost no opacity (0.05, 5 %), a filter (opacity(0), brightness), a clip, text moved off
    # the page (a negative text-indent, an absolute or fixed position, a far negative offset),
    # a transform or zoom, collapsed content
    r"|(?<![\w-])opacity\s*:\s*(?:0*\.0\d*|\.0\d*|\d(?:\.\d*)?\s*%)\s*(?:[;\"'!]|$)"
    r"|(?<![\w-])filter\s*:|clip(?:-path)?\s*:|text-indent\s*:\s*-"
    r"|position\s*:\s*(?:absolute|fixed)"
    r"|(?<![\w-])(?:margin(?:-\w+)?|left|top|right|bottom|inset)\s*:\s*-\s*\d{3,}"
    r"|(?<![\w-])(?:transform|scale|translate|zoom)\s*:|content-visibility\s*:\s*hidden"
    r"|visibility\s*:\s*collapse|font-size\s*:\s*1(?:\.\d*)?\s*(?:px|pt)\b"
    r"|^(?=[^>]*?overflow\s*:\s*(?:hidden|clip))(?=[^>]*?(?<![\w-])(?:max-)?(?:height|width)\s*:"
    r"\s*0(?:px|em|rem|%)?\s*(?:[;\"']|$))",
    re.IGNORECASE,
)
# a colour given to an HTML element (style="color: …", <font color="…">), read by value
# (hsl(0, 0%, 100%) and rgb(100%, …) hold percent signs)
_HTML_COLOUR = re.compile(
    r"(?<![\w-])(?:-webkit-text-fill-)?color\s*[:=]\s*[\"']?\s*(?P<value>#?[\w!.,()%/\s]+?)"
    r"\s*(?:[;\"'>]|$)",
    re.I,
)
# a background behind an element's text (style="background: black", bgcolor="#000"): default
# black text on a dark one is unreadable, so a background dark enough to read as text on white
# hides the element
_HTML_BACKGROUND = re.compile(
    r"(?<![\w-])(?:background(?:-color)?\s*:|bgcolor\s*=)\s*[\"']?\s*"
    r"(?P<value>#?[\w!.,()%/\s]+?)\s*(?:[;\"'>]|$)",
    re.I,
)
_VERB = re.compile(r"\\verb\*?(?P<delim>[^\sa-zA-Z*])(?:(?!(?P=delim)).)*(?:(?P=delim)|$)", re.M)
# ~~struck~~ in Markdown: the opening pair starts a word, the closing pair ends one (a~~b is
# LaTeX spacing)
_STRIKE = re.compile(
    r"(?:(?<=\s)|^)~~(?=\S)(?:(?!~~)[^\n])*(?<=\S)~~(?=[\s.,;:!?)]|$)", re.MULTILINE
)
# % starts a comment unless escaped (\%) or a percent sign: after a number (50%, 50 %) or a
# number in math ($2$%), or used as a word after "the" or a quantity word ("the %
# difference", "a few %")
_COMMENT = re.compile(
    r"(?<![\\\d(])(?<!\d\s)(?<!\\,)(?<!\d\$)(?<!\d\\\))"  # 50%, 50 %, $2$%
    r"(?!(?<=\bthe %)(?=\s*[A-Za-z]))(?!(?<=\bfew %)(?=\s*[A-Za-z]))"  # "the % difference"
    r"(?!(?<=\bper %)(?=\s*[A-Za-z]))(?!(?<=\bin %)(?=\s*[A-Za-z]))(?!(?<=\bby %)(?=\s*[A-Za-z]))"
    r"(?<!\bthe )(?<!\bfew )(?<!\bper )(?<!\bin )(?<!\bby )%(?![)\],:;.])[^\n]*"
    r"|(?<=\b(?:the|few|per) )%(?!\s*[A-Za-z)\],:;.])[^\n]*"
    r"|(?<=\b(?:in|by) )%(?!\s*[A-Za-z)\],:;.])[^\n]*",
    re.IGNORECASE,
)


def _group_end(text: str, pos: int) -> int:
    """The end of the brace group that encloses ``pos`` (the text's end at the top level)."""
    end = matching_brace(text, pos)  # from inside a group: the brace that closes it
    return len(text) if end is None else end


def _argument_end(text: str, brace: int) -> int:
    """The index after the group opened at ``brace`` (the text's end when never closed); an
    unbraced ``\\boxed{…}`` argument (``\\phantom\\boxed{…}``) is the box."""
    if not text.startswith("{", brace):
        brace = text.find("{", brace)
        if brace < 0:
            return len(text)
    end = matching_brace(text, brace + 1)
    return len(text) if end is None else end + 1


_SUMMARY = re.compile(r"\s*<summary\b[^<>]{0,200}>.*?</summary\s*>", re.IGNORECASE | re.DOTALL)


def _html_spans(text: str) -> Iterator[tuple[int, int]]:
    """What HTML hides in ``text``: hiding elements whole, other tags' attributes."""
    text = _typeset(text)
    covered = 0
    for match in _OPEN_TAG.finditer(text):
        if match.start() < covered:
            continue  # inside a span already hidden
        tag = match.group("tag").casefold()
        attributes = match.group("attrs")
        if tag in ("details", "dialog"):  # shown only when open
            hiding = re.search(r"\bopen\b", attributes, re.IGNORECASE) is None
        else:
            colour = _HTML_COLOUR.search(attributes)
            background = _HTML_BACKGROUND.search(attributes)
            hiding = (
                tag in ("del", "s", "strike")
                or bool(_HIDING_ATTRIBUTE.search(attributes))
                or (colour is not None and not _visible_colour(colour.group("value"), None))
                or (background is not None and _visible_colour(background.group("value"), None))
            )
        if hiding:
            close = re.compile(rf"</{tag}\s*>", re.IGNORECASE).search(text, match.end())
            covered = len(text) if close is None else close.end()
            summary = _SUMMARY.match(text, match.end()) if tag == "details" else None
            if summary is not None and summary.end() <= covered:  # shown while collapsed
                yield match.start(), match.end()
                yield summary.end(), covered
            else:
                yield match.start(), covered
        elif attributes.strip():  # attributes never render (<img alt="…">, <a title="…">)
            yield match.start(), match.end()


def _latex_spans(text: str) -> Iterator[tuple[int, int]]:
    """Hiding commands and invisible colours, left to right; one inside a span already
    hidden is skipped, so nested or unclosed groups cost one scan (not one per command)."""
    matches = sorted(
        [
            *_HIDING_COMMANDS.finditer(text),
            *_COLOUR_ARGUMENT.finditer(text),
            *_COLOUR_BOX.finditer(text),
            *_CSS_COLOUR.finditer(text),
            *_LET.finditer(text),
        ],
        key=lambda m: m.start(),
    )
    covered = 0
    for match in matches:
        if match.start() < covered:
            continue
        if match.re is _LET:
            end = match.end()
        elif match.re is _HIDING_COMMANDS:
            end = _argument_end(text, match.end())  # at its "{" or an unbraced \boxed
        elif match.re is _COLOUR_BOX:
            model = match.group("model") or match.group("frame_model")
            if not _visible_colour(match.group("spec"), model):
                continue  # a light background: the text on it is read
            end = _argument_end(text, match.end())
        elif match.re is _CSS_COLOUR:
            if _visible_colour(match.group("spec"), None):
                continue
            end = _argument_end(text, match.end())
        elif _visible_colour(match.group("spec"), match.group("model")):
            continue
        elif match.group("command") == "textcolor":
            rest = match.end()
            while rest < len(text) and text[rest].isspace():
                rest += 1
            end = _argument_end(text, rest) if text.startswith(("{", "\\boxed"), rest) else rest
        else:  # \color is a switch: it paints the rest of its group
            end = _group_end(text, match.end())
        covered = end
        yield match.start(), end


# Commands that typeset nothing of some of their arguments. A box there is never drawn: a
# label, an index entry, a message to the log or a shell (\\write18), a URL (\\url shows it
# verbatim, as code: a box shown as code is no box; \\href shows only its second argument),
# PDF metadata and annotations (\\pdfinfo, \\hypersetup, \\pdfcomment), a tooltip's text
# (\\tooltip{shown}{tip}, MathJax's \\texttip and \\mathtip), a bookmark's string, a reference's
# key, a box register (\\sbox, \\savebox: stored, not shown). A register shown later
# (\\usebox) draws a box a macro made, which does not count (see ``_expanded``), so what it
# stores stays hidden. Beamer's overlays (\\only<2>{…}, \\uncover, \\visible, \\invisible,
# \\alt, \\temporal) show their arguments on some slides only: each hides them all.
_UNTYPESET = re.compile(
    r"\\(?P<name>label|index|glossary|typeout|message|wlog|errmessage|errhelp|special|url"
    r"|nolinkurl|href|hyperlink|hypertarget|hyperref|pdfinfo|hypersetup|pdfcomment"
    r"|pdfmargincomment|pdfsidelinecomment|pdfmarkupcomment|pdftooltip|tooltip|texttip|mathtip"
    r"|fancytooltip|texorpdfstring|pdfstringdef|pdfbookmark|bookmark|ref|eqref|pageref|autoref"
    r"|cref|Cref|nameref|cite[a-zA-Z]{0,8}|nocite|input|include|sbox|savebox|newsavebox"
    r"|PackageWarning|PackageInfo|PackageError|ClassWarning|GenericWarning|write"
    r"|only|uncover|visible|invisible|onslide|alt|temporal)(?![a-zA-Z@])\*?"
)
_ALL = frozenset({-1})  # every argument
# name: (how many arguments it takes, which of them are not typeset); optional arguments in
# brackets are options and never typeset either
_UNTYPESET_ARGUMENTS: dict[str, tuple[int, frozenset[int]]] = {
    **dict.fromkeys(
        "label index glossary typeout message wlog errmessage errhelp special url nolinkurl"
        " pdfinfo hypersetup pdfcomment pdfmargincomment pdfsidelinecomment bookmark ref eqref"
        " pageref autoref cref Cref nameref cite nocite input include newsavebox only uncover"
        " visible invisible onslide".split(),
        (1, _ALL),
    ),
    **dict.fromkeys(
        "write sbox savebox pdfstringdef pdfbookmark PackageWarning PackageInfo PackageError"
        " ClassWarning GenericWarning alt".split(),
        (2, _ALL),
    ),
    "temporal": (3, _ALL),
    **dict.fromkeys("href hyperlink hypertarget".split(), (2, frozenset({0}))),
    **dict.fromkeys(
        "pdfmarkupcomment pdftooltip tooltip texttip mathtip fancytooltip texorpdfstring".split(),
        (2, frozenset({1})),
    ),
    "hyperref": (1, frozenset()),  # \\hyperref[label]{shown}
}
_TOKEN = re.compile(r"\\(?:[A-Za-z@]+|.)|-?\d+")
_OVERLAY_SPEC = re.compile(r"\s*<[^<>\n]{0,40}>")
_OVERLAYS = frozenset("only uncover visible invisible onslide alt temporal".split())


def _command_arguments(text: str, name: str, pos: int, count: int) -> list[tuple[int, int]]:
    """The spans of up to ``count`` arguments of a command from ``pos``: brace groups,
    control sequences (an unbraced ``\\boxed{…}`` is the box), a number (``\\write18``), a
    verbatim URL (``\\url|…|``); options in brackets and overlay specs are skipped over."""
    arguments: list[tuple[int, int]] = []
    while len(arguments) < count and pos < len(text):
        while pos < len(text) and text[pos].isspace():
            pos += 1
        spec = _OVERLAY_SPEC.match(text, pos) if name in _OVERLAYS else None
        if spec is not None:
            pos = spec.end()
            continue
        if text.startswith("[", pos):
            close = text.find("]", pos, pos + 300)
            if close < 0:
                break
            pos = close + 1
            continue
        if text.startswith("{", pos) or _BOX_OPEN.match(text, pos):
            end = _argument_end(text, pos)
        elif name in ("url", "nolinkurl") and pos < len(text) and text[pos] not in "\\{":
            close = text.find(text[pos], pos + 1, pos + 300)  # \\url|…|: verbatim delimiters
            end = len(text) if close < 0 else close + 1
        else:
            token = _TOKEN.match(text, pos)
            if token is None:
                break
            end = token.end()
        arguments.append((pos, end))
        pos = end
    return arguments


def _untypeset_spans(text: str) -> Iterator[tuple[int, int]]:
    """What commands that typeset nothing of an argument hide (see ``_UNTYPESET``), tikz
    content drawn invisible (``_tikz_spans``), and the rest of a group after a switch that
    makes text invisible (``_SWITCH``). A command inside a span already hidden is skipped, so
    nested commands cost one scan."""
    covered = 0
    for match in _UNTYPESET.finditer(text):
        if match.start() < covered:
            continue
        name = match.group("name")
        key = "cite" if name.startswith("cite") else name
        count, hidden = _UNTYPESET_ARGUMENTS[key]
        arguments = _command_arguments(text, name, match.end(), count)
        if name in _OVERLAYS and name != "invisible":
            spec = _OVERLAY_SPEC.match(text, match.end())
            after = _OVERLAY_SPEC.match(text, arguments[0][1]) if arguments else None
            if spec is None and after is None:
                continue  # no overlay spec: shown on every slide
            if name == "onslide" and (not arguments or not text.startswith("{", arguments[0][0])):
                covered = _group_end(text, match.end())
                yield match.start(), covered  # \\onslide<2> as a switch: the rest of its group
                continue
        if not arguments:
            yield match.start(), match.end()
            continue
        if hidden == _ALL:
            covered = arguments[-1][1]
            yield match.start(), covered
            continue
        yield match.start(), arguments[0][0]  # the command and its options
        for index, (start, end) in enumerate(arguments):
            if index in hidden:
                yield start, end
            if index + 1 < len(arguments):
                yield end, arguments[index + 1][0]  # options between arguments
    yield from _switch_spans(text)
    if "tikz" in text or "\\node" in text:
        yield from _tikz_spans(text)


# A switch that makes the rest of its group invisible: \\transparent{0}, a font size below 2 pt
# (\\fontsize{0.01pt}{0pt}\\selectfont)
_SWITCH = re.compile(
    r"\\transparent\s*\{(?P<opacity>[^{}]{0,40})\}"
    r"|\\fontsize\s*\{(?P<size>[^{}]{0,40})\}(?:\s*\{[^{}]{0,40}\})?(?:\s*\\selectfont(?![a-zA-Z]))?"
)
_FACTOR = re.compile(r"^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$", re.I)
_TINY_POINTS = 2.0  # a font size below which no reader reads the text


def _tiny_factor(spec: str) -> bool:
    """Whether a scale or opacity factor shows (almost) nothing: below 0.1 in size (``-0``,
    ``0.0``, ``1e-9``), or not a number a reader can tell (``\\zero``)."""
    spec = spec.strip().replace(" ", "")
    return _FACTOR.match(spec) is None or abs(float(spec)) < 0.1


def _tiny_length(spec: str) -> bool:
    """Whether a font size is below :data:`_TINY_POINTS`, or not a length a reader can tell."""
    points = _points(spec)
    return points is None or points < _TINY_POINTS


def _switch_spans(text: str) -> Iterator[tuple[int, int]]:
    """The rest of the group after an invisible switch (``_SWITCH``), and the argument of a
    scale that shows nothing (``_SCALEBOX``); one inside a span already hidden is skipped."""
    covered = 0
    for match in _SWITCH.finditer(text):
        opacity, size = match.group("opacity"), match.group("size")
        if match.start() >= covered and (
            (opacity is not None and _tiny_factor(opacity))
            or (size is not None and _tiny_length(size))
        ):
            covered = _group_end(text, match.end())
            yield match.start(), covered
    covered = 0
    for match in _SCALEBOX.finditer(text):
        factors = [f for f in (match.group("h"), match.group("v")) if f is not None]
        if match.start() >= covered and any(_tiny_factor(f) for f in factors):
            covered = _argument_end(text, match.end())
            yield match.start(), covered
    covered = 0
    for match in _RESIZE_OR_RAISE.finditer(text):
        lift = match.group("lift")
        hidden = (
            _far_length(lift)
            if lift is not None
            else _tiny_box_length(match.group("w")) or _tiny_box_length(match.group("h"))
        )
        if match.start() >= covered and hidden:
            covered = _argument_end(text, match.end())
            yield match.start(), covered


# a box resized to (almost) nothing, or raised or lowered off the line by 100 pt or more
_RESIZE_OR_RAISE = re.compile(
    r"\\resizebox\*?\s*\{(?P<w>[^{}]{0,40})\}\s*\{(?P<h>[^{}]{0,40})\}\s*(?=\{|\\boxed)"
    r"|\\raisebox\s*\{(?P<lift>[^{}]{0,40})\}(?:\s*\[[^\]]{0,40}\]){0,2}\s*(?=\{|\\boxed)"
)
_RELATIVE_LENGTH = re.compile(r"^(?P<number>[-+]?(?:\d+\.?\d*|\.\d+))?\s*\\[A-Za-z]+$")
_FAR_POINTS = 100.0  # a lift no line of text needs


def _tiny_box_length(spec: str) -> bool:
    """Whether a \\resizebox dimension shows (almost) nothing: ``!`` keeps the aspect,
    ``0.5\\linewidth`` is a share of a page length, any other length below 2 pt is tiny."""
    spec = spec.strip()
    if spec == "!":
        return False
    relative = _RELATIVE_LENGTH.match(spec)
    if relative is not None:
        return abs(float(relative.group("number") or 1)) < 0.01
    return _tiny_length(spec)


def _far_length(spec: str) -> bool:
    """Whether a \\raisebox lift moves the text off the page (or is no length a reader can
    tell)."""
    points = _points(spec)
    return points is None or points >= _FAR_POINTS


# \\scalebox{h}[v]{…} with a factor that shows nothing: -0, +0.0, 0e5, 1e-9
_SCALEBOX = re.compile(
    r"\\scalebox\s*\{(?P<h>[^{}]{0,40})\}\s*(?:\[(?P<v>[^\]]{0,40})\])?\s*(?=\{|\\boxed)"
)
# tikz options that draw a node's text invisible: no opacity (opacity=0, text opacity=0,
# transparent), a text colour not readable on white (text=white, a bare white), no scale
_TIKZ_OPTIONS = re.compile(
    r"(?P<head>\\tikz|\\node|\bnode|\\begin\s*\{\s*(?P<env>tikzpicture|scope)\s*\}|\\tikzset"
    r"|\\tikzstyle)\s*(?:\{|\[)(?P<options>[^\[\]]{0,300})[\]}]"
)
_TIKZ_KEY = re.compile(
    r"(?:^|[,{])\s*(?P<key>(?:text\s+)?opacity|text|color|(?:x|y)?scale)\s*=\s*(?P<value>[^,{}\]]*)"
    r"|(?:^|[,{])\s*(?P<bare>[A-Za-z]+(?:![\d.]+(?:![A-Za-z]+)?)?)\s*(?=[,}]|$)"
)
_LIGHT_NAMES = frozenset(
    "white yellow cyan lime pink lightgray lightgrey lightblue lightyellow lightcyan ivory snow"
    " whitesmoke ghostwhite transparent none".split()
)


def _hiding_tikz(options: str) -> bool:
    """Whether tikz options draw text invisible (see ``_TIKZ_KEY``)."""
    for key in _TIKZ_KEY.finditer(options):
        name, value, bare = key.group("key"), key.group("value"), key.group("bare")
        if name is not None and ("opacity" in name or "scale" in name):
            if _tiny_factor(value):
                return True
        elif name is not None:
            if not _visible_colour(value, None):
                return True
        elif bare is not None:
            mixed = _MIX.match(bare.casefold())
            known = mixed is not None and (
                mixed.group("name") in _VISIBLE_NAMES or mixed.group("name") in _LIGHT_NAMES
            )
            if bare.casefold() == "transparent" or (known and not _visible_colour(bare, None)):
                return True
    size = _TIKZ_FONT_SIZE.search(options) if "fontsize" in options else None
    return size is not None and _tiny_length(size.group(1))


_TIKZ_FONT_SIZE = re.compile(r"\\fontsize\s*\{([^{}]*)\}")


def _tikz_spans(text: str) -> Iterator[tuple[int, int]]:
    """Tikz content drawn invisible: a node's text, a picture or scope whose options hide
    (to its end), and after a style that hides every node (``\\tikzset``), the rest."""
    covered = 0
    for match in _TIKZ_OPTIONS.finditer(text):
        if match.start() < covered or not _hiding_tikz(match.group("options")):
            continue
        head = match.group("head")
        if head.startswith(("\\tikzset", "\\tikzstyle")):
            yield match.start(), len(text)
            return
        if match.group("env") is not None:
            close = re.compile(rf"\\end\s*\{{\s*{match.group('env')}\s*\}}").search(
                text, match.end()
            )
            covered = len(text) if close is None else close.end()
            yield match.start(), covered
        else:
            rest = _NODE_PLACE.match(text, match.end())
            pos = match.end() if rest is None else rest.end()
            if text.startswith("{", pos) or _BOX_OPEN.match(text, pos):
                covered = _argument_end(text, pos)
                yield match.start(), covered
            else:  # \\tikz[opacity=0] \\node{…}; : to the end of the path
                end = text.find(";", pos)
                covered = len(text) if end < 0 else end + 1
                yield match.start(), covered


_NODE_PLACE = re.compile(r"\s*(?:\([^()]{0,40}\))?\s*(?:at\s*\([^()]{0,80}\))?\s*")


def _remove_spans(text: str, spans: list[tuple[int, int]]) -> str:
    pieces: list[str] = []
    pos = 0
    for start, end in sorted(spans):
        if end <= pos:
            continue
        pieces.append(text[pos : max(start, pos)])
        pos = end
    pieces.append(text[pos:])
    return " ".join(pieces) if len(pieces) > 1 else pieces[0]


def without_hidden(text: str, code: bool = False) -> str:
    """``text`` with what a reader does not see removed (see the module's docstring); with
    ``code`` a fenced code block keeps its text (:func:`_fence_text`)."""
    if not any(mark in text for mark in ("%", "\\", "<", "~~", "`", "](", "![")):
        return text
    if _REDEFINED_BOX.search(text):
        return " "  # \\boxed redefined: what a box shows is not what it holds
    if "pagecolor" in text and _dark_page(text):
        return " "  # default black text on a dark page: nothing is read
    if "def" in text or "command" in text:
        text = _expanded(text)
    if "```" in text:
        text = _FENCE.sub(_fence_text if code else _fence_boxes, text)
    text = _BLOCK_COMMENTS.sub(" ", text)
    if "exclude" in text:
        text = _without_excluded(text)
    if "<" in text:  # fallback content: a box in it is drawn only where the media fails
        text = _FALLBACK.sub(lambda element: _MACRO_BOX.sub(r"\\mbox", element.group()), text)
    if "`" in text:  # a code span is shown, but a box in it is code, not a box
        text = _CODE_SPAN.sub(lambda span: _MACRO_BOX.sub(r"\\mbox", span.group()), text)
    if "<" in text:
        text = _remove_spans(text, list(_html_spans(text)))
    text = _VERB.sub(" ", text)
    text = _COMMENT.sub(" ", text)
    text = _STRIKE.sub(" ", text)
    if "\\" not in text:
        return text
    return _remove_spans(text, [*_latex_spans(text), *_untypeset_spans(text)])


# Environments the comment package (\\excludecomment{name}) or the version package
# (\\excludeversion{name}) drop: their content is never typeset
_EXCLUDED = re.compile(
    r"\\(?:excludecomment|excludeversion)\s*\{\s*(?P<name>[A-Za-z@*]{1,30})\s*\}"
)
_MAX_EXCLUDED = 10
# HTML elements whose content is fallback, drawn only where the media or the object fails, or
# shown in part (a closed <select> shows one option; a <textarea> shows its text as typed): its
# words are read (a hedge there is seen by some readers), but a box in it is no answer
_FALLBACK = re.compile(
    r"<(?P<tag>object|video|audio|canvas|applet|select|textarea|rp)\b.*?(?:</(?P=tag)\s*>|\Z)",
    re.I | re.DOTALL,
)


def _without_excluded(text: str) -> str:
    """``text`` without the environments an ``\\excludecomment`` declaration drops, and
    without the declarations."""
    names = list(dict.fromkeys(m.group("name") for m in _EXCLUDED.finditer(text)))
    if not names:
        return text
    pattern = "|".join(map(re.escape, names[:_MAX_EXCLUDED]))
    environment = re.compile(
        rf"\\begin\s*\{{(?P<env>{pattern})\}}.*?(?:\\end\s*\{{(?P=env)\}}|\Z)", re.DOTALL
    )
    return environment.sub(" ", _EXCLUDED.sub(" ", text))


# A macro without arguments shows its body where it is used: "\\def\\alt{or maybe D}
# \\boxed{B} \\alt" reads "\\boxed{B} or maybe D". Its definition stays hidden where it
# stands; a body holding a box is not expanded (a box a macro makes does not count).
_NESTED = r"(?:[^{}]|\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\})"  # braces three deep
_SIMPLE_MACRO = re.compile(
    r"\\(?:(?:re)?newcommand\*?|providecommand\*?)\s*(?:\{\s*\\(?P<name>[A-Za-z@]+)\s*\}"
    r"|\\(?P<bare>[A-Za-z@]+))\s*(?P<args>\[1\])?\s*"
    rf"\{{(?P<body>{_NESTED}{{0,200}})\}}"
    rf"|\\[gex]?def\s*\\(?P<dname>[A-Za-z@]+)\s*\{{(?P<dbody>{_NESTED}{{0,200}})\}}"
)
_MAX_MACROS = 20


def _expanded(text: str) -> str:
    """``text`` with each use of a simple macro (see ``_SIMPLE_MACRO``) replaced by its body,
    outside the definitions; one pass, so a body's own macros stay as written. A box in a
    body becomes text: what a macro shows is read, but a box it makes does not count."""
    bodies: dict[str, tuple[str, bool]] = {}
    spans: list[tuple[int, int]] = []
    for match in _SIMPLE_MACRO.finditer(text):
        name = match.group("name") or match.group("bare") or match.group("dname")
        body = match.group("body") if match.group("dname") is None else match.group("dbody")
        spans.append(match.span())
        if len(bodies) < _MAX_MACROS:
            bodies[name] = (_MACRO_BOX.sub(r"\\mbox", body), match.group("args") is not None)
    if not bodies:
        return text
    names = "|".join(map(re.escape, bodies))
    use = re.compile(rf"\\({names})(?![a-zA-Z@])(?:\s*\{{(?P<argument>[^{{}}]{{0,200}})\}})?")

    def expand(match: re.Match[str]) -> str:
        body, takes_argument = bodies[match.group(1)]
        if not takes_argument:
            return (
                " "
                + body
                + " "
                + (f"{{{match.group('argument')}}}" if match.group("argument") is not None else "")
            )
        return " " + body.replace("#1", match.group("argument") or "") + " "

    pieces, position = [], 0
    for start, end in spans:
        pieces.append(use.sub(expand, text[position:start]))
        pieces.append(text[start:end])
        position = end
    pieces.append(use.sub(expand, text[position:]))
    return "".join(pieces)


_CODE_SPAN = re.compile(r"`[^`\n]+`")
_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)


def _fence_boxes(block: re.Match[str]) -> str:
    """A fenced code block without its code, keeping its boxes. Its code is no prose: its
    words offer nothing and hedge nothing ("# or use numpy"). A box in it is the answer
    written out for the reader ("```latex \\boxed{14.5}```"), which the protocol's last-box
    rule reads like any box: a block after the answer that boxes another value ("Final
    answer: \\boxed{29}") gives the last answer, not code to look past."""
    code = _MACRO_BOX.sub(r"\\boxed", block.group())
    return " " + " ".join(code[start:end] for start, end in scan_boxes(code).spans) + " "


_MACRO_BOX = re.compile(r"\\(?:boxed|fbox|framebox)(?![a-zA-Z])")


def _fence_text(block: re.Match[str]) -> str:
    """A fenced code block as its lines, without the fences: what it states is read where
    the answer is stated again after the box ("```\\nFinal answer: h = 1.63 m\\n```"), though
    its words hedge nothing (:func:`_fence_boxes`)."""
    body = _FENCE_LINE.sub("\n", block.group())
    return "\n" + _MACRO_BOX.sub(r"\\boxed", body) + "\n"


_FENCE_LINE = re.compile(r"```[^\n`]*")


# ---------------------------------------------------------------------------------------------
# disowned boxes
# ---------------------------------------------------------------------------------------------

_MATH_MARKUP = re.compile(
    r"\$+|\\[()\[\]]|\\(?:text|textbf|textit|textrm|mathrm|mathbf|boldsymbol|emph|underline"
    r"|overline|mbox|fbox)\s*\{|\\(?:left|right|[bB]ig+[lr]?)(?![a-zA-Z])|[{}*_]|\\[,;:! ]|\\q?quad"
)
_INVISIBLE_CHARACTERS = dict.fromkeys(
    map(
        ord,
        "\u200b\u200c\u200d\u2060\ufeff\u00ad\u2061\u2062\u2063\u2064\u200e\u200f"
        "\u034f\u180e\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
        # fillers drawn blank between letters ("o\u3164r" reads "or"): Hangul fillers, Khmer
        # inherent vowels, Mongolian and other variation selectors, invisible format marks
        "\u3164\u115f\u1160\uffa0\u17b4\u17b5\u180b\u180c\u180d\u061c\ufff9\ufffa\ufffb"
        "\u206a\u206b\u206c\u206d\u206e\u206f" + "".join(map(chr, range(0xFE00, 0xFE10))),
    )
)
_LETTERLIKE = (  # blocks of letters drawn otherwise: circled, modifier (superscript), subscript
    *range(0x24B6, 0x24EA),
    *range(0x1D2C, 0x1D6B),
    *range(0x1D9C, 0x1DC0),
    *range(0x02B0, 0x02B9),
    *range(0x02E0, 0x02E5),
    0x2071,
    0x207F,
    *range(0x2090, 0x209D),
    *range(0x1F130, 0x1F14A),
)
# letters that look Latin (Cyrillic, Greek): "оr" with a Cyrillic o is still "or"
_LOOK_ALIKES: dict[int, str | int | None] = {
    **str.maketrans("аеорсухіОАЕРСХοօᴏʀгԁѕјһӏԛԝɾ", "aeopcyxiOAEPCXooorrdsjhlqwr"),
    # letters drawn otherwise ("ⓞⓡ", "ᵒʳ", "🄾🅁"): only letters, so "m²" keeps its digit
    **{
        code: unicodedata.normalize("NFKC", chr(code))
        for code in _LETTERLIKE
        if len(unicodedata.normalize("NFKC", chr(code))) == 1
        and unicodedata.normalize("NFKC", chr(code)).isascii()
        and unicodedata.normalize("NFKC", chr(code)).isalpha()
    },
    # parenthesized (⒪⒭), negative circled and squared letters, regional indicators (🇴🇷)
    **{0x249C + i: chr(0x61 + i) for i in range(26)},
    **{start + i: chr(0x41 + i) for start in (0x1F150, 0x1F170, 0x1F1E6) for i in range(26)},
    # full-width and mathematical letters ("ｏｒ", "𝗈𝗋"), one character each, so offsets hold
    **{
        code: unicodedata.normalize("NFKC", chr(code))
        for code in (*range(0xFF21, 0xFF3B), *range(0xFF41, 0xFF5B), *range(0x1D400, 0x1D6A4))
        if len(unicodedata.normalize("NFKC", chr(code))) == 1
        and unicodedata.normalize("NFKC", chr(code)).isascii()
    },
}
# a relation that says "is not": \\nsim, \\not\\approx, \\notin, \\cancel{=}, ≢, ∉, and a
# relation struck through by a combining overlay (=\u0338 shows as ≠)
NEGATED_RELATION = (
    r"\\n(?:eq|e|equiv|sim|simeq|approx|approxeq|cong|in|subseteq|subset|supseteq|supset|mid"
    r"|parallel|doteq|triangleq)(?![a-zA-Z])|\\notin(?![a-zA-Z])"
    r"|\\not\s*(?:\\[a-zA-Z]+|[=∈≈≡∼]|\{\s*(?:=|\\[a-zA-Z]+)\s*\})"
    r"|\\(?:cancel|bcancel|xcancel|sout|st)\s*\{?\s*(?:=|\\(?:approx|equiv|sim|simeq|in|eq))\s*\}?"
    r"|\\(?:mathrel\s*\{?\s*)?\\[rl]lap\s*\{?\s*/\s*\}?\s*(?:=|\\[a-zA-Z]+)\s*\}?"
    r"|(?:[=∈≈≡∼≃≅]|\\(?:approx|equiv|sim|simeq|cong|in|eq)(?![a-zA-Z]))\s*[\u0338\u20d2\u20e5]"
    r"|[≠≢≉≁≇≄∉⊄⊅⊈⊉∤∦≭]"
)
# a relation struck through (``\\cancel{=}``) says "is not"; hiding the struck text would
# leave a bare box, so it is read as ``\\neq`` first
_STRUCK_RELATION = re.compile(
    r"\\(?:cancel|bcancel|xcancel|sout|st|xout)\s*\{\s*(?:=|\\(?:approx|equiv|sim|simeq|in|eq)"
    r"(?![a-zA-Z]))\s*\}"
)


def unstrike_relations(text: str) -> str:
    """``\\eta \\cancel{=} \\boxed{…}`` -> ``\\eta \\neq \\boxed{…}``."""
    return _STRUCK_RELATION.sub(r"\\neq ", text)


# a negation right before a box denies it: "it is not \\boxed{…}", "\\neq \\boxed{…}"
_DENIAL_BEFORE = re.compile(
    r"(?:\bnot|n['’]t|\bnever|\bno longer|\binstead of|\brather than|\bexcept|\bnor"
    rf"|\bnot equal to|\bunequal to|{NEGATED_RELATION}|\\not(?![a-zA-Z])"
    r"|!=|<>|✗|❌|✘|✖|🚫"
    r"|\bunlike|\bas opposed to|\bavoid|\bdon['’]?t (?:write|answer|use|say))"
    r"[\s:=(\-–—,]*$",
    re.IGNORECASE,
)
# A judgement right before a box labels it ("Wrong answer: \boxed{…}", "A common mistake is
# \boxed{…}", "gives the wrong answer \boxed{…}"), unless its clause corrects something:
# then it judges what came before and introduces the correction ("I made an error.
# Correcting this error: \boxed{…}", "I had the sign wrong: \boxed{…}", "my first try was
# wrong: \boxed{…}").
_JUDGEMENT_BEFORE = re.compile(
    r"(?:(?:wrong|incorrect|false|bad|invalid)(?: answer(?: is| would be)?)?"
    r"|(?<!by )(?<!in )(?:mistake|error|trap|pitfall)(?: is| would be)?"  # not "by mistake:"
    r"|incorrectly|mistaken(?:ly)?|erroneous(?:ly)?|discard(?:ed)?|reject(?:ed)?"
    r"|ignore|scratch(?:ed)?|disregard"
    # the answer a careless reader would give: "The trap answer is", "Tempting:", "The naive
    # answer", "A careless student would box", "Beginners often write", "Don't be fooled by"
    r"|(?:naive|tempting|trap|careless|decoy|distractor|misconception|red\s+herring|first[-\s]guess)"
    r"(?:\s+(?:answer|choice|option|result|value))?(?:\s+here)?(?:\s+(?:is|would\s+be|gives))?"
    r"|(?:careless|naive|sloppy)\s+(?:student|reader|solver)s?\s+(?:would|might|often|usually)?\s*"
    r"(?:box|write|give|say|answer|pick|choose)"
    r"|(?:beginners|students|novices)\s+(?:often|usually|typically|commonly)\s+(?:write|box|give"
    r"|say|answer|pick|choose)|(?:fooled|tricked|misled)\s+(?:by|into)|fall\s+for)"
    r"[\s:=(\-–—,]*$",
    re.IGNORECASE,
)
_CORRECTION_CUE = re.compile(
    r"\b(?:correct(?:s|ing|ed|ion)?|fix(?:es|ed|ing)?|re-?do(?:ing|ne)?|redid"
    r"|should (?:be|read|have)|revis(?:e|ed|ing)|recalculat\w*|recomput\w*"
    r"|(?:I|I've|we|we've)\s+(?:had|have|made|make|got))\b"  # not "students make …"
    r"|\b(?:is|was|are|were|has been|had been)\s*$",  # "my first try was wrong"
    re.IGNORECASE,
)
_CLAUSE_MARK = re.compile(r"[.!?;¶•→⇒]|(?<!\w)-\s")


# The relations that bound, by the way they point (TeX names, their Unicode glyphs), and those
# that state no value at all: "much less" (``\\ll``), a negated relation (``\\nleq``: "not at
# most" is no value the question asks for), "less or greater" (``\\lessgtr``), proportionality
# (``\\propto``: a value up to a factor).
_LESS_NAMES = (
    "lt le leq leqq leqslant lesssim lessapprox lessdot eqslantless lneq lneqq lnsim lnapprox"
    " lvertneqq prec preceq precsim precapprox preccurlyeq curlyeqprec precneqq precnsim"
    " precnapprox triangleleft trianglelefteq vartriangleleft"
)
_GREATER_NAMES = (
    "gt ge geq geqq geqslant gtrsim gtrapprox gtrdot eqslantgtr gneq gneqq gnsim gnapprox"
    " gvertneqq succ succeq succsim succapprox succcurlyeq curlyeqsucc succneqq succnsim"
    " succnapprox triangleright trianglerighteq vartriangleright"
)
_NO_VALUE_NAMES = (
    "ll lll llless gg ggg gggtr nless nleq nleqq nleqslant ngtr ngeq ngeqq ngeqslant nprec"
    " npreceq nsucc nsucceq ntriangleleft ntrianglelefteq ntriangleright ntrianglerighteq"
    " lessgtr lesseqgtr lesseqqgtr gtrless gtreqless gtreqqless propto varpropto"
)
_LESS_GLYPHS = "≤≦≨≲≺≼≾⋖⋜⋞⊲⊴⩽⩿⪁⪃⪅⪇⪉⪍⪕⪙⪯⪱⪳⪵⪷⪹⋦⋨"
_GREATER_GLYPHS = "≥≧≩≳≻≽≿⋗⋝⋟⊳⊵⩾⪀⪂⪄⪆⪈⪊⪎⪖⪚⪰⪲⪴⪶⪸⪺⋧⋩"
_NO_VALUE_GLYPHS = "≪≫⋘⋙≮≯≰≱⊀⊁⋠⋡⋪⋫⋬⋭≶≷≸≹⋚⋛⪋⪌∝"


def _names(*groups: str) -> str:
    """The TeX relation names in ``groups`` as one alternation, longest first."""
    names = sorted({name for group in groups for name in group.split()}, key=len, reverse=True)
    return rf"\\(?:{'|'.join(names)})(?![a-zA-Z])"


_RELATION_SYMBOLS = (
    rf"{_names(_LESS_NAMES, _GREATER_NAMES, _NO_VALUE_NAMES)}"
    rf"|[{_LESS_GLYPHS}{_GREATER_GLYPHS}{_NO_VALUE_GLYPHS}]"
)
# Foreign words that state a bound (hedge words have their list in ``_OFFERING``): "au plus",
# "höchstens", "como máximo", "не более", "最多", and after the value "以内", "以下", "或更少".
# Cyrillic is written as the look-alike reading of the prose leaves it (see ``_LOOK_ALIKES``).
_FOREIGN_UPPER = (
    r"au\s+plus|ou\s+moins|h(?:ö|oe)chstens|maximal|oder\s+weniger|como\s+m[aá]ximo"
    r"|a\s+lo\s+sumo|o\s+menos|al\s+massimo|al\s+più|o\s+meno|no\s+m[aá]ximo|ou\s+menos"
    r"|hoogstens|of\s+minder|co\s+najwyżej|lub\s+mniej|högst|højst|eller\s+mindre"
    r"|не\s+более|не\s+больше|максимум|как\s+максимум|или\s+меньше|или\s+менее"
)
_FOREIGN_LOWER = (
    r"au\s+moins|ou\s+plus|mindestens|wenigstens|minimal|oder\s+mehr|como\s+m[ií]nimo"
    r"|al\s+menos|por\s+lo\s+menos|o\s+m[aá]s|al\s+minimo|almeno|o\s+più|no\s+m[ií]nimo"
    r"|pelo\s+menos|ou\s+mais|minstens|ten\s+minste|of\s+meer|co\s+najmniej|lub\s+więcej"
    r"|minst|mindst|eller\s+(?:mer|mere)|не\s+менее|не\s+меньше|минимум|как\s+минимум"
    r"|по\s+крайней\s+мере|или\s+больше|или\s+более"
)
_CJK_UPPER = (
    r"最多|至多|最大で|不超过|不超過|不大于|不高于|不多于|多くとも|以下|以内|未満|未满"
    r"|或更少|或更低|まで"
)
_CJK_LOWER = (
    r"至少|最少|最低|最小で|不少于|不低于|不小于|少なくとも|以上|或更多|或更高|(?<!不)超[过過]"
)


def _look_alike(pattern: str) -> str:
    """``pattern`` as the look-alike reading (``_LOOK_ALIKES``) leaves the words it matches."""
    return pattern.translate(_LOOK_ALIKES)


# A bound is no value. A relation right before the box (``\\eta < \\boxed{0.154}``, ``v \\ge``,
# ``\\lesssim``, ``\\preceq``, ``⩿``, ``\\ll``, ``\\nleq``, ``\\propto``) makes it a bound on the
# quantity on its left, as ``\\neq`` makes it a value the quantity is not; so do words that
# state an inequality ("must stay below", "less than", "slower than", "at most", "up to",
# "caps at", "tops out at", "has a ceiling of", "is within", "is not above", "no more than",
# "bounded by", "exceeds", "never goes past", "au plus", "höchstens", "не более", "最多"), and
# an order symbol around it (``\\mathcal{O}(\\boxed{…})``: a value up to a factor). A noun phrase
# is no bound: "The maximum speed is \\boxed{…}" answers a question that asks for the maximum.
# ``\\approx``, ``=`` and ``\\sim`` claim the value.
_BOUND_BEFORE = re.compile(
    r"(?:(?P<relation>(?<![<>=\-])<(?![=>\-])|(?<![<>=\-])>(?!=)|<=|>="
    rf"|{_RELATION_SYMBOLS})"
    r"|(?P<order>(?:\\mathcal\s*O|\\Theta|(?<![A-Za-z\\])O)\s*\()"
    r"|\b(?:(?!(?:other|rather|either|neither|whether)\b)(?:\w+er|less|more|fewer)"
    r"(?:\s+\w+)?\s+than(?:\s+or\s+(?:equal\s+to|equal|at))?"
    r"|(?:at|to)\s+(?:the\s+)?(?:very\s+)?(?:most|least)|exceed(?:s|ed|ing)?"
    r"|surpass(?:es|ed|ing)?|up\s+to|within|as\s+(?:much|many|high|large|far|long|fast|big|great"
    r"|little|few|low|small|short)\s+as"
    r"|bounded\s+(?:above\s+|below\s+|from\s+(?:above|below)\s+)?by|capped\s+at|limited\s+to"
    r"|(?:caps?|max(?:es)?|tops?|peaks?|bottoms?)\s+out\s+at|caps\s+at"
    r"|(?:an?\s+)?(?:ceiling|cap|floor)\s+(?:of|at)"
    r"|(?:stays?|remains?|be|is|are|was|were|lies?|falls?|kept|keep|held|holds?|sits?|goes|go"
    r"|going|went|gets?|drops?|dips?|rises?|climbs?|strictly|well|just|always|must|anything"
    r"|somewhere|anywhere|not|never|no)\s+(?:below|above|under|beneath|over|past|beyond)"
    r"|(?:an?|as)\s+(?:upper|lower)\s+(?:bound|limit)\s+(?:of|is)?"
    rf"|{_look_alike(_FOREIGN_UPPER)}|{_look_alike(_FOREIGN_LOWER)})"
    rf"|(?:{_CJK_UPPER}|{_CJK_LOWER})(?:为|為|是|は|が)?)"
    r"[\s=(]*$",
    re.IGNORECASE,
)
# "adds up to", "rounded up to", "rises up to", "climbs up to" state the value (a sum, a
# rounding, where a motion gets): "up to" after them is no bound
_UP_TO_VALUE = re.compile(
    r"\b(?:add|sum|round|come|came|total|amount|tally|work|end|make|made|match|measure|set"
    r"|rise|rose|risen|climb|go|goes|went|gone|travel|slide|slid|move|swing|swung|reach|fly"
    r"|flies|flew|jump|bounce|fill|roll|float|shoot|shot|spring|sprang|lift|pull|swell)"
    r"(?:s|ed|es|ing|led|ming)?\s+up\s+to\b[\s=(]*$",
    re.IGNORECASE,
)
# a number right before the relation: "0 < \\boxed{…}", "14 < \\boxed{14.5}" compare the
# value with a number, the box is the value
# ("v_2 <" reads "v 2 <": a subscript, no number)
_NUMBER_END = re.compile(r"(?:^|[=(,;:…¶]\s*|(?<![A-Za-z\d])\s)[-+−]?\d+(?:[.,]\d+)?$")
_TAG_END = re.compile(r"<[A-Za-z/!][^<>]{0,200}>[\s=(]*$")


def _bound_before(window: str) -> str | None:
    """The way the prose right before a box bounds the quantity with it (see
    ``_BOUND_BEFORE``): ``"upper"`` ("v < \\boxed{…}", "at most"), ``"lower"`` ("v \\ge",
    "at least", "exceeds"), ``""`` for a relation that states no value at all (``\\ll``,
    ``\\nleq``, ``\\propto``, ``\\mathcal{O}(``), or None. A relation that opens the text (two
    boxes compared: ``\\boxed{a} < \\boxed{b}``), follows a number, closes an HTML tag
    (``<b>``) or a Markdown quote ("> \\boxed{…}") bounds nothing."""
    bound = _BOUND_BEFORE.search(window)
    if bound is None or _UP_TO_VALUE.search(window):
        return None
    if bound.group("order") is not None:
        return ""
    if bound.group("relation") is None:
        before = window[max(0, bound.start() - 20) : bound.start()]
        return _way(bound.group(0), negated=_NEGATED_BOUND.search(before) is not None)
    left = window[: bound.start()].rstrip()
    if not left or left.endswith(("¶", "…")) or _TAG_END.search(window):
        return None
    if _NOT_BEFORE.search(left):
        return ""  # "v \\not\\le \\boxed{…}": a negated relation states no value
    if _NUMBER_END.search(left) is not None:
        return None
    return _relation_direction(bound.group("relation"), box_right=True)


_NOT_BEFORE = re.compile(r"\\not$")
# which way a relation points: the quantity is less than the box (the box an upper bound) or
# greater; "much less", a negated relation, proportionality state no value
_NO_VALUE_RELATION = re.compile(rf"[{_NO_VALUE_GLYPHS}]|{_names(_NO_VALUE_NAMES)}")
_LESS = re.compile(rf"<|[{_LESS_GLYPHS}]|{_names(_LESS_NAMES)}")
# the words that make a box an upper bound; "lower bound", "at least", "floor" and the foreign
# lower-bound phrases are read first ("au moins" before "plus", "por lo menos" before "o menos")
_LOWER_FIRST = re.compile(
    r"lower\s+(?:bound|limit|estimate)|bounded\s+(?:below|from\s+below)|\bfloor|under-?estimate"
    r"|infimum|bottoms?\s+out|as\s+(?:little|few|low|small|short)\s+as|smallest|lowest|fewest"
    rf"|{_look_alike(_FOREIGN_LOWER)}|{_CJK_LOWER}",
    re.IGNORECASE,
)
_UPPER_WORDS = re.compile(
    r"upper|(?:less|fewer|smaller|lower|shorter|slower|lighter|cooler|colder|weaker|narrower"
    r"|thinner|earlier|lesser)(?:\s+\w+)?\s+than|most|max|below|under|beneath|capped|limited"
    r"|tops|bounded(?!\s+(?:below|from\s+below))|ceiling|\bcaps?\b|supremum|over-?estimate"
    r"|\b(?:less|fewer|smaller|lower|lesser|down|largest|greatest|highest|biggest)\b"
    r"|up\s+to|within|as\s+(?:much|many|high|large|far|long|fast|big|great)\s+as"
    r"|\b(?:or|and)\s+(?:anything\s+|something\s+|even\s+)?(?:down|lower|less|fewer|smaller"
    r"|shorter|slower|lighter|cooler|colder|weaker|narrower|thinner|earlier|below|under|beneath)"
    rf"|{_look_alike(_FOREIGN_UPPER)}|{_CJK_UPPER}",
    re.IGNORECASE,
)
# the words that make it a lower bound; words that point neither way ("in the best case",
# "bound" alone, a comparative with no known direction: "other than") state no value
_LOWER_WORDS = re.compile(
    r"\b(?:more|greater|larger|higher|bigger|longer|faster|heavier|hotter|warmer|stronger|wider"
    r"|thicker|later|above|over|beyond|past|up|exceed\w*|surpass\w*|least|min(?:imum|imal)?)\b",
    re.IGNORECASE,
)


def _relation_direction(relation: str, box_right: bool) -> str:
    """``"upper"`` when the relation makes the box an upper bound of the quantity (``v <
    \\boxed{…}``, ``\\boxed{…} > v``), ``"lower"`` for the other way, ``""`` for a relation
    that states no value ("much less", ``\\nleq``, ``\\propto``); ``box_right``: the box
    stands on the relation's right."""
    if _NO_VALUE_RELATION.search(relation):
        return ""
    less = _LESS.search(relation) is not None
    return "upper" if less == box_right else "lower"


_NEGATED_BOUND = re.compile(r"\b(?:no|not|never)\s*$|n['’]t\s*$", re.IGNORECASE)
_NEGATION_IN = re.compile(r"\b(?:no|not|never)\b|n['’]t\b", re.IGNORECASE)
_FOREIGN_WORDS = re.compile(
    rf"{_look_alike(_FOREIGN_UPPER)}|{_look_alike(_FOREIGN_LOWER)}", re.IGNORECASE
)


def _direction(words: str) -> str:
    """The bound that words state of the box beside them: "less than", "at most", "or
    below", "up to", "max", "upper bound", "(ceiling)" make it an upper bound; "more than",
    "at least", "exceeds", "or above", "minimum", "lower bound", "floor" a lower one; words
    that point neither way ("in the best case", "as a bound") ``""``."""
    if _LOWER_FIRST.search(words):
        return "lower"
    if _UPPER_WORDS.search(words):
        return "upper"
    return "lower" if _LOWER_WORDS.search(words) else ""


def _way(words: str, negated: bool = False) -> str:
    """:func:`_direction` of bound words, turned round when they are negated ("no more
    than", "is not above", "never goes past", "(not exceeded)"): a negated bound is the
    opposite bound; a negated bound that points neither way is still no value."""
    way = _direction(words)
    if _FOREIGN_WORDS.search(words):  # Portuguese "no máximo" is "at the most"
        return way
    if negated or _NEGATION_IN.search(words):
        return {"upper": "lower", "lower": "upper"}.get(way, "")
    return way


# A denial word in a condition ("if not,", "if I'm wrong,", "should that be wrong,", "if that
# is rejected,") puts the box after it forward for the case the one before is wrong: it
# denies nothing, and between two boxes it offers the later as an alternative (a hedge).
_CONDITIONAL_DENIAL = re.compile(
    r"(?:^|[,;:(¶…]|\s)(?:if|should|in\s+case|were|unless|when)\b[^.;!?¶]{0,40}?"
    r"(?:\bnot\b|n['’]t\b|\bwrong\b|\bincorrect\b|\bmistaken\b|\bfalse\b|\brejected\b"
    r"|\boff\b|\bfails?\b)\s*[,:;\-–—]+\s*$",  # its comma closes the condition
    re.IGNORECASE,
)


def _denied_before(window: str) -> bool:
    """Whether the prose right before a box (:func:`_window_before`) takes it back."""
    if _CONDITIONAL_DENIAL.search(window):
        return False
    if _DENIAL_BEFORE.search(window.replace(" ¶ ", " ")):  # "rather\nthan" is one phrase
        return True
    judgement = _JUDGEMENT_BEFORE.search(window)
    if judgement is None:
        return False
    clause = _CLAUSE_MARK.split(window[: judgement.start()])[-1]
    return _CORRECTION_CUE.search(clause) is None


_DENIED = (
    r"(?:(?:a |the )?(?:wrong|incorrect|false|invalid|bad)(?: answer| result| value| choice)?"
    r"|rejected|discarded|(?:can be |is )?ruled out|a (?:mistake|trap|pitfall|distractor)|an error"
    r"|bogus|nope|fails"
    r"|not (?:correct|right|valid|true|the (?:final |correct |right )?answer)"
    # struck from the options, or the answer a careless reader gives: "is eliminated", "is
    # out", "is unlikely", "is the naive answer", "is a red herring", "— that's the trap"
    r"|eliminated|excluded|out(?=\s*[.,;:!)]|\s*$)|implausible|unlikely|improbable|unphysical"
    r"|(?:only\s+)?(?:the|a|an)\s+(?:\w+\s+){0,2}?(?:naive|tempting|careless|trap|decoy|first[-\s]guess"
    r"|misconception|red\s+herring)"
    r"|what\s+a\s+(?:careless|naive|sloppy)\s+\w+\s+would\s+\w+"
    r"|that(?:'s|’s|\s+is)\s+(?:the|a)\s+(?:trap|mistake|pitfall|distractor|wrong\s+one|decoy))\b"
)
# a retraction after the box takes it back: "Just kidding", "Scratch that", "never mind"
_RETRACTED = (
    r"just kidding|(?:i'm |i am )?(?:only |just )?joking|scratch that|never ?mind|"
    r"(?:i )?take (?:that|it) back|on second thought|disregard (?:that|this)|not really"
)
# "is wrong", "(incorrect)", "- wrong", a cross; a bare "Wrong" or "False" opening the next
# sentence is not taken for a denial ("False, since ..." after a TF box explains it)
# words between the copula and the judgement: "are all incorrect", "is simply wrong"
_DEGREE_WORDS = (
    r"(?:definitely|clearly|also|simply|all|both|just|obviously|certainly|plainly|totally"
    r"|completely|entirely|absolutely|surely|likewise|equally)"
)
_DENIAL_AFTER = re.compile(
    rf"^[\s.,;:!(|$]*(?:\(\s*{_DENIED}\s*[!.]*\s*\)|[-–—:]+\s*(?:{_DENIED}|[✗❌✘✖])|{_RETRACTED}"
    # "\\boxed{0.154} ≠ \\eta": the box is not the quantity ("≠ 0.308" compares it with another
    # value, and "≠ \\boxed{…}" denies the next box; the window ends at the next box)
    rf"|(?:{NEGATED_RELATION}|\\not(?![a-zA-Z])|!=)(?![\s$]*(?:(?:[-+−]\s*)?\.?\d|\\boxed|$))"
    r"|(?:does|do|did)(?: not|n['’]?t) (?:hold|apply|work)|\(\s*[✗❌✘✖×]\s*\)|✖|🚫"
    rf"|(?:is|was|would be|are|were|'s|can be|could be|should be|must be)\s+"
    rf"(?:{_DEGREE_WORDS}\s+){{0,2}}{_DENIED}|fails\b"
    r"|(?:[-–—,;]+\s*)?(?:eliminated|excluded|implausible|unlikely|improbable|unphysical"
    r"|ruled out)(?=\s*[.!;)]|\s*$)"
    r"|(?:is|was|are|were)n['’]?t\s+(?:correct|right|valid|the (?:final |correct |right )?answer)\b"
    r"|✗|❌|✘)",
    re.IGNORECASE,
)
_WINDOW = 80  # characters of prose read on each side of a box


# A list of options struck out after the box: "\\boxed{B} -- A, C, D eliminated", "— (A) and (C)
# are wrong", "; options A, C, D are ruled out". The listed options are denied, not offered:
# the box stands unless the list strikes its own option ("\\boxed{B} — B is wrong").
_OPTION_LISTED = r"\(?(?-i:[A-H])\)?(?![\w])"
_ELIMINATION = re.compile(
    rf"(?:(?:the\s+)?(?:options?|choices?|answers?)\s+)?(?P<items>{_OPTION_LISTED}"
    rf"(?:\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|&\s*)\s*{_OPTION_LISTED})*)\s*"
    rf"(?:(?:are|is|were|was|can\s+be|get|gets)\s+(?:{_DEGREE_WORDS}\s+){{0,2}})?{_DENIED}",
    re.IGNORECASE,
)
_ELIMINATION_START = re.compile(
    r"^(?:[\s.,;:!(|$]|\\[,;:! ]|\\\]|[-–—]+)*(?:(?:actually|indeed|hmm+|note(?:\s+that)?|also)"
    r"\b[\s,:;—–-]*)?",
    re.IGNORECASE,
)
_BOXED_OPTION = re.compile(
    r"^\s*(?:\\(?:text|mathrm|textbf|mathbf)\s*\{\s*)?\(?([A-H])\)?\s*\}?\s*$"
)


def eliminated_options(after: str) -> frozenset[str] | None:
    """The options a list right after the box strikes out (``_ELIMINATION``), or None."""
    plain = _plain(after[: 2 * _WINDOW])  # a list in the next paragraph strikes too
    match = _ELIMINATION.match(plain, _ELIMINATION_START.match(plain).end())  # type: ignore[union-attr]
    if match is None:
        return None
    return frozenset(re.findall(r"(?-i:[A-H])", match.group("items")))


def _eliminates_itself(box: str, after: str) -> bool:
    """Whether an elimination list right after an option's box strikes that option."""
    inner = box[box.find("{") + 1 : -1] if box.endswith("}") else ""
    option = _BOXED_OPTION.match(inner)
    struck = eliminated_options(after)
    return option is not None and struck is not None and option.group(1) in struck


def _decoded(text: str) -> str:
    """``text`` as a reader sees its letters: HTML character references decoded ("&#111;r"
    is "or"), TeX character codes too (``\\char111\\char114``, ``\\symbol{111}``, ``^^6f``),
    mirrored text read back (``\\reflectbox{ro}``), invisible characters gone, look-alike
    letters read as Latin."""
    if "&" in text:
        text = html.unescape(text)
    if "^^" in text or "char" in text or "symbol" in text:
        text = _CHAR_CODE.sub(_character, text)
    if "reflectbox" in text or "scalebox" in text:
        text = _unmirrored(text)
    if "\u202e" in text:  # a right-to-left override shows its text back to front
        text = _OVERRIDDEN.sub(lambda run: run.group(1)[::-1], text)
    return text.translate(_INVISIBLE_CHARACTERS).translate(_LOOK_ALIKES)


# TeX's character codes: \\char with a decimal, "hex, 'octal or `character code, \\symbol{…},
# XeTeX's \\Uchar, and ^^ notation (^^6f; ^^/ is "o", the character 64 places away)
_CHAR_CODE = re.compile(
    r"\\(?:char|Uchar)\s*(?:(?P<dec>\d{1,7})|\"(?P<hex>[0-9A-Fa-f]{1,6})|'(?P<oct>[0-7]{1,8})"
    r"|`\\?(?P<literal>.))\s?"
    r"|\\(?:symbol|Uchar|unichar)\s*\{\s*(?:(?P<sdec>\d{1,7})|\"(?P<shex>[0-9A-Fa-f]{1,6})"
    r"|'(?P<soct>[0-7]{1,8}))\s*\}"
    r"|\^\^\^\^(?P<hex4>[0-9a-f]{4})|\^\^(?P<hex2>[0-9a-f]{2})|\^\^(?P<caret>[\x00-\x7f])"
)


def _character(code: re.Match[str]) -> str:
    """The character a TeX character code (``_CHAR_CODE``) stands for."""
    groups = code.groupdict()
    if groups["literal"] is not None:
        return groups["literal"]
    if groups["caret"] is not None:
        value = ord(groups["caret"])
        return chr(value + 64 if value < 64 else value - 64)
    for name, base in (("dec", 10), ("hex", 16), ("oct", 8), ("hex4", 16), ("hex2", 16)):
        for key in (name, "s" + name):
            if groups.get(key) is not None:
                value = int(groups[key], base)
                return chr(value) if 0 < value < 0x110000 else code.group()
    return code.group()


_OVERRIDDEN = re.compile("\u202e([^\u202c\u2069\n]*)")
# mirrored text (\\reflectbox{ro}, \\scalebox{-1}[1]{ro}) is read back to front: "or"
_MIRROR = re.compile(r"\\(?:reflectbox|scalebox\s*\{\s*-[^{}]{0,20}\}(?:\s*\[[^\]]{0,20}\])?)\s*\{")


def _unmirrored(text: str) -> str:
    """``text`` with the content of each mirroring command (``_MIRROR``) as a reader reads it:
    its letters without markup, back to front."""
    pieces, pos = [], 0
    for mirror in _MIRROR.finditer(text):
        if mirror.start() < pos:
            continue
        end = matching_brace(text, mirror.end())
        if end is None:
            break
        letters = _MATH_MARKUP.sub("", text[mirror.end() : end]).strip()
        pieces += [text[pos : mirror.start()], " ", letters[::-1], " "]
        pos = end + 1
    return "".join([*pieces, text[pos:]])


def _plain(text: str) -> str:
    """Prose as a reader reads it: without math delimiters, wrappers, spacing and invisible
    characters, look-alike letters read as Latin (``\\text{o}\\text{r}`` is "or")."""
    text = _decoded(text)
    text = re.sub(r"\}\s*\\text\s*\{", "", text)  # \text{o}\text{r}: one word
    return re.sub(r"\s+", " ", _MATH_MARKUP.sub(" ", text))


def _same_paragraph(text: str) -> str:
    """The prose after a box that can take it back: up to the paragraph's end, or a next
    paragraph that is only a judgement ("\\boxed{…}\\n\\n(wrong)"). A cross-mark line below
    the box that names an option ("❌ (C) would need …") is an elimination list, no denial."""
    parts = _PARAGRAPH_BREAK.split(text, maxsplit=1)
    if not parts[0].strip() and len(parts) > 1:  # a paragraph that judges the box above
        judged = _JUDGEMENT_ONLY.match(parts[1]) or (
            _CROSS_START.match(parts[1]) and not _NAMES_OPTION.match(parts[1].lstrip())
        )
        return parts[1] if judged else ""
    line, _, rest = parts[0].partition("\n")
    if rest and _NAMES_OPTION.match(rest.lstrip()):
        return line  # "❌ (C) would need …", "❌ A value of 29 m/s would …": eliminations
    return line + " " + rest


_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_NAMES_OPTION = re.compile(
    r"[(\[]?\s*[✗❌✘✖×🚫]\s*[)\]]?\s*(?:\*\*)?\s*(?:\(?[A-H]\)|[A-H][.:)]|option\b|[^\n]*\d)",
    re.I,
)
_CROSS_START = re.compile(r"\s*[(\[]?\s*[✗❌✘✖🚫]")
_JUDGEMENT_ONLY = re.compile(
    rf"^\s*[(\[]?\s*(?:{_DENIED}|[✗❌✘✖])\s*[!.]*\s*[)\]]?\s*(?:\n|$)", re.I
)


def _window_before(text: str) -> str:
    """The prose right before a box, as :func:`_plain` reads it; a window cut inside the
    text starts with an ellipsis, so its first word never reads as a clause's start."""
    text = text.replace("\n", " ¶ ")  # a line break ends a clause (a list's item)
    if len(text) <= _WINDOW:
        return _plain(text)
    plain = _plain(text[-3 * _WINDOW :])  # spacing and markup do not use up the window
    return "… " + plain[-_WINDOW:]


_LIST_GAP = re.compile(r"^(?:\s|[,;&]|\band\b)*$", re.IGNORECASE)


# Bound words right after the box make it a bound (inside the box, words that are no value make
# it unparseable already): "or less", "or slower", "or anything lower", "and no more", "at
# (the very) most", "at least", "tops", "(upper bound)", "as a ceiling", "(cap)", "(supremum)",
# "(an overestimate)", "(not exceeded)", "max", "(maximum possible)", "in the best case",
# "höchstens", "или меньше", "以内". A word that goes on is no bound ("or more precisely
# 14.52"); "max" must stand alone ("max height" labels).
_BOUND_WORDS = (
    r"(?:(?:or|and|but)\s+(?:(?:anything|something|even|no|not|never)\s+)?"
    r"(?:(?!(?:other|rather|either|neither|whether|ever|never|after|so)\b)\w+er|less|more|fewer"
    r"|below|above|under|beneath|beyond|up|down)(?:\s+than\s+(?:that|this))?"
    r"|(?:at|to)\s+(?:the\s+)?(?:very\s+)?(?:most|least|max(?:imum)?|min(?:imum)?)|tops"
    r"|(?:as\s+)?(?:an?\s+|the\s+)?(?:upper|lower)\s+(?:bound|limit|estimate)"
    r"|(?:as\s+)?(?:an?\s+|the\s+)?(?:ceiling|cap|floor|supremum|infimum|over-?estimate"
    r"|under-?estimate)"
    r"|(?:not|never)\s+(?:exceeded|surpassed|passed|topped)"
    r"|(?:in\s+the\s+)?(?:best|worst)[\s-]+case|at\s+(?:best|worst)"
    r"|(?:max(?:imum)?|minimum)(?:\s+possible(?:\s+value)?)?"  # not "min": a unit (minutes)
    rf"|{_look_alike(_FOREIGN_UPPER)}|{_look_alike(_FOREIGN_LOWER)})"
)
_BOUND_AFTER = re.compile(
    rf"^[\s.,;:!(|$]*(?:(?:is|are|was|being|as)\s+(?:only\s+|just\s+|merely\s+)?)?{_BOUND_WORDS}"
    r"(?=\s*(?:[).,;:!?\]\n。，；！？）]|$))"
    r"|^[\s.,;:!(|$]*(?:at\s+(?:the\s+)?(?:very\s+)?(?:most|least)|(?:is|as)\s+(?:an?|the|my)\s+"
    r"(?:upper|lower)\s+(?:bound|limit))\b"
    rf"|^[\s.,;:!(|$]*(?:{_CJK_UPPER}|{_CJK_LOWER})",
    re.IGNORECASE,
)
# a relation right after the box with a quantity's symbol on its right: "\\boxed{14.5} > v"
_RELATION_AFTER = re.compile(
    rf"^[\s$]*(?:<(?=[\s=])|>|<=|>=|{_RELATION_SYMBOLS})\s*(?:\\[A-Za-z]+|[A-Za-z])"
    r"(?:_\s*\{?[\w\\]{1,12}\}?)?\s*(?:[$.,;)]|\\[\])]|$)"
)
# A bound stated in the sentences right after the box's: "Note that this is only an upper
# bound.", "It is an overestimate.", "This is the largest it could be.", "Treat this as a
# ceiling", "The true value is somewhat less.", "The actual value lies below this.", "In
# reality it will be lower than this.", "The speed is at most this." The subject must be the
# box ("this", "it", "that value") or the true value beside it: "This is less than the speed of
# sound" compares it with something else, and "It is the maximum speed" names what it is.
_LATER_BOUND = re.compile(
    r"(?:\b(?:this|that|it|which)|\bthe\s+(?:above|boxed|given|stated|final|computed|calculated)"
    r"\s+(?:value|result|answer|figure|number))(?:\s+(?:value|result|answer|figure|number"
    r"|estimate))?\s+"
    r"(?:is|was|'s|’s|serves\s+as|acts\s+as|represents|gives|should\s+be\s+(?:read|taken|treated"
    r"|seen)\s+as)\s+(?:(?:only|just|merely|really|therefore|thus|strictly|in\s+fact|actually"
    r"|clearly|then|an?|the|my|our)\s+)*"
    r"(?P<noun>(?:upper|lower)\s+(?:bound|limit|estimate)|over-?estimate|under-?estimate|ceiling"
    r"|floor|cap|supremum|infimum|bound"
    # an extreme only as the value's own ("the largest it could be", "the maximum possible"):
    # "This is a minimum, so the equilibrium is stable" names what the point is
    r"|(?:largest|smallest|highest|lowest|greatest|biggest|maximum|minimum|most|least)"
    r"\s+(?:possible(?:\s+value)?|(?:value\s+)?(?:it|that|this)\s+(?:could|can|might|may"
    r"|would)\s+(?:ever\s+)?(?:be|get|reach|take)))(?=\s*(?:[.;:!,)]|$)|\s+(?:on|for)\b)"
    r"|\b(?:treat|take|read|regard|consider|view|use|see|interpret)\s+(?:this|that|it|the\s+"
    r"(?:value|result|answer|box(?:ed\s+value)?))\s+as\s+(?:an?\s+|the\s+|only\s+|just\s+)*"
    r"(?P<as>(?:upper|lower)\s+(?:bound|limit|estimate)|ceiling|floor|cap|bound|maximum|minimum"
    r"|over-?estimate|under-?estimate)"
    r"|\b(?:the\s+)?(?:(?:true|real|actual|exact|physical)(?:\s+\w+)?|correct\s+(?:value|answer"
    r"|result|number|figure|one))\s+(?:is|will\s+be|would\s+be|must\s+be|should\s+be|lies|falls"
    r"|sits|may\s+be"
    r"|could\s+be|is\s+likely)\s+(?:(?:somewhat|slightly|a\s+bit|a\s+little|probably|likely"
    r"|certainly|even|much|considerably|rather|strictly|well|always|lower|higher)\s+)*?"
    r"(?P<true>less|lower|smaller|below|under|beneath|more|higher|greater|larger|above|over"
    r"|bigger)\b"
    r"|\bin\s+(?:reality|practice|fact)\s*,?\s*(?:it|the\s+value|this)\s+(?:will|would|is|must"
    r"|should|may|might)\s+(?:be\s+)?(?:(?:somewhat|slightly|a\s+bit|a\s+little|probably|even"
    r"|much)\s+)*(?P<real>less|lower|smaller|more|higher|greater|larger)\s+than\s+(?:this|that)\b"
    # the value put as a guess that may be off one way: "It could be less.", "It is probably
    # higher." (nothing it is compared with: "it could be less than 20 m/s" is a check)
    r"|\b(?:it|this|that|the\s+value)\s+(?:could|might|may|is\s+(?:probably|likely|possibly"
    r"|perhaps))\s+(?:(?:well|even|also|actually)\s+)?(?:be\s+)?(?:(?:a\s+bit|somewhat|slightly"
    r"|even|much|a\s+little)\s+)*(?P<maybe>less|lower|smaller|more|higher|greater|larger)"
    r"(?=\s*(?:[.;!,)]|$))"
    r"|(?P<back>at\s+(?:the\s+)?(?:very\s+)?(?:most|least)|no\s+(?:more|less|higher|lower"
    r"|greater|smaller|larger)\s+than|up\s+to)\s+(?:this|that)(?:\s+value)?\b",
    re.IGNORECASE,
)
_LATER_BOUND_SENTENCES = 2  # the box's sentence and the next one
# a physical cause after "the actual value will be lower": a caveat on the ideal model the
# question sets, not a bound on the answer ("because of friction", "due to air resistance")
_CAUSE = re.compile(
    r"^[^.;!?]{0,40}?\b(?:because|due\s+to|owing\s+to|since|as\s+a\s+result\s+of|from|given"
    r"|thanks\s+to|on\s+account\s+of)\b",
    re.IGNORECASE,
)


def _next_sentences(after: str, count: int) -> str:
    """The first ``count`` sentences after a box, as :func:`_plain` reads them: the rest of
    its paragraph, or the next paragraph where nothing follows the box in its own (a note
    set below the answer)."""
    paragraphs = _PARAGRAPH_BREAK.split(_decoded(after[: 3 * _WINDOW]), maxsplit=2)
    own = paragraphs[0] if paragraphs[0].strip(" \t\n$.") or len(paragraphs) == 1 else paragraphs[1]
    text = _plain(own)
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    return text[: ends[count - 1] if len(ends) >= count else None]


def _bound_later(after: str) -> str | None:
    """The way the sentence after the box's makes it a bound (see ``_LATER_BOUND``), or
    None: ``"upper"`` when the true value is less, ``""`` for "a bound" that points no way."""
    found = _LATER_BOUND.search(_next_sentences(after, _LATER_BOUND_SENTENCES))
    if found is None:
        return None
    measured = found.group("true") or found.group("real") or found.group("maybe")
    if (found.group("true") or found.group("real")) and _CAUSE.search(
        _next_sentences(after, _LATER_BOUND_SENTENCES)[found.end() :]
    ):
        return None  # "The actual height will be lower because of friction": the ideal answer
    if measured is not None:
        # the true value is less than the box: the box is an upper bound
        return _direction(measured)
    words = found.group("noun") or found.group("as") or found.group("back")
    return _way(words)


# A box that is an end of an interval the quantity lies in: ``v \\in (0, \\boxed{…}]``,
# ``\\eta \\in \\left[0,\\ \\boxed{…}\\right)``, ``t \\in [\\boxed{…}, \\infty)``: a bound.
_INTERVAL_BEFORE = re.compile(
    r"(?:\\in|∈)\s*(?P<open>[(\[\]]|\\\{|\\l(?:brack|paren|angle))\s*"
    r"(?:(?P<left>[^,;()\[\]{}$]{1,40}?)\s*[,;]\s*)?$"
)
_INTERVAL_AFTER = re.compile(r"^\s*[,;]\s*[^,;()\[\]{}$]{1,40}?\s*(?:[)\[\]]|\\\}|\\r\w+)")


def _interval_end(before: str, after: str) -> str | None:
    """``"upper"`` for a box that closes an interval after a membership sign, ``"lower"``
    for one that opens it (see ``_INTERVAL_BEFORE``), else None."""
    opened = _INTERVAL_BEFORE.search(before)
    if opened is None:
        return None
    if opened.group("left") is not None:
        return "upper"
    return "lower" if _INTERVAL_AFTER.match(_plain(after[:_WINDOW])) else None


def _bound_after(after: str) -> str | None:
    """The way the prose right after a box bounds the quantity with it (see ``_BOUND_AFTER``),
    with or without the unit written after the box (``\\boxed{14.5}\\,\\mathrm{m/s} or
    less``), or in the next sentence (:func:`_bound_later`): ``"upper"``, ``"lower"``, ``""``
    (no value) or None."""
    head = after[:_WINDOW]
    relation = _RELATION_AFTER.match(head)
    if relation is not None:
        return _relation_direction(relation.group(0), box_right=False)
    decoded = _decoded(head)
    plain = _plain(decoded.split("\n\n", 1)[0])
    unitless = _plain(_UNIT_AFTER_BOX.sub("", decoded, count=1).split("\n\n", 1)[0])
    words = _BOUND_AFTER.match(plain) or _BOUND_AFTER.match(unitless)
    if words is None:
        return _bound_later(after)
    return _way(words.group(0))


def _around(text: str, spans: list[tuple[int, int]]) -> tuple[list[str], list[str]]:
    """For each box (its span in ``text``, at least one), the text before it back to the
    previous box and the text after it up to the next one."""
    gaps = [text[a[1] : b[0]] for a, b in pairwise(spans)]
    return [text[: spans[0][0]], *gaps], [*gaps, text[spans[-1][1] :]]


def bounds(text: str, spans: list[tuple[int, int]]) -> list[str | None]:
    """For each box (its span in ``text``), the bound the prose around it makes of it (a
    relation or bound words before or after it; :func:`_bound_before`,
    :func:`_bound_after`): a bound is no value, unless the question asks for that extreme
    ("at least \\boxed{4 m/s}" for "the minimum speed"). The verifier, which sees the question,
    decides."""
    if not spans:
        return []
    befores, afters = _around(text, spans)
    found: list[str | None] = []
    for before, after in zip(befores, afters, strict=True):
        window = _window_before(before)
        ways = {_bound_before(window), _bound_after(after), _interval_end(window, after)} - {None}
        found.append(None if not ways else next(iter(ways)) if len(ways) == 1 else "")
    return found


# A box is the answer only where it stands for itself. An operation written right around it
# makes the answer a function of the box: ``-\\boxed{…}``, ``2\\boxed{…}``, ``1/\\boxed{…}``,
# ``\\sqrt{\\boxed{…}}``, ``\\frac{\\boxed{…}}{2}``, ``e^{\\boxed{…}}``, ``\\neg\\boxed{B}``
# before it; ``\\boxed{…}^2``, ``\\boxed{…}\\times10^{3}``, ``\\boxed{…}/2``, "\\boxed{14.5}
# thousand" after it (a unit between them is the box's own). A relation (``=``), a colon, a
# list's comma or spacing leave it alone; so does a bullet ("- \\boxed{…}" opens a line).
_SPACING_END = r"(?:\s|\\[,;:! ]|~|\\(?:q?quad|left|bigl?|Bigl?|displaystyle)(?![a-zA-Z]))*$"
_OPERAND_BEFORE = re.compile(
    r"(?:(?P<sign>[-+−±∓]|\\(?:pm|mp)(?![a-zA-Z]))"
    r"|\d|[/÷×¬]|\^|\\(?:times|cdot|div|ast|neg|lnot|sqrt|sin|cos|tan|cot|sec|csc|sinh|cosh"
    r"|tanh|arcsin|arccos|arctan|ln|log|lg|exp)(?![a-zA-Z])(?:\s*_\s*(?:\{[^{}]*\}|\w))?"
    r"|\\[dt]?frac\s*\{|\\[dt]?frac\s*\{[^{}]*\}\s*\{|\\sqrt\s*(?:\[[^\]]*\])?\s*\{|[\^_]\s*\{"
    r"|\\(?:overline|bar)\s*\{)" + _SPACING_END
)
# a negation that only a choice or a truth value can take: ``\\sim\\boxed{B}``, ``!\\boxed{True}``
# (before a number ``\\sim`` says "about")
_NEGATION_BEFORE = re.compile(r"(?:\\sim(?![a-zA-Z])\s*|(?<![\w)\]}.!?'’])!)$")  # "~" is a space
_CHOICE_CONTENT = re.compile(
    r"^\\boxed\s*\{\s*(?:\\(?:text\w*|mathrm|mathbf)\s*\{\s*)?(?:[A-H]|true|false|yes|no)\s*\}?\s*\}$",
    re.I,
)
# the side right before a box, when it is the math's first: a function of one quantity
# (``v^2 = \\boxed{…}``, ``2v =``, ``v/2 =``, ``\\ln v =``, ``v + 1 =``) says the box is that
# function's value, not the quantity's
_FIRST_SIDE = re.compile(
    r"(?:^|\$|\\\[|\\\(|\\begin\{\w+\*?\}|\n|&|\\\\)([^=$&\n]{1,40}?)=" + _SPACING_END
)


def _transformed_side(before: str) -> bool:
    """Whether the math's first side, right before the box and its ``=``, is a function of
    one quantity (see ``_FIRST_SIDE``); a formula in several (``\\frac12 mv^2 =``) is not."""
    match = _FIRST_SIDE.search(before)
    if match is None:
        return False
    from studybench.verify.chains import transformed_quantity

    return transformed_quantity(match.group(1))


_MULTIPLIER_WORDS = r"(?:thousand|million|billion|trillion|hundred|dozen)s?\b"
_UNIT_RIGHT_AFTER = re.compile(  # a unit, never a multiplier word ("\\text{Thousand}")
    r"^(?:\s|\\[,;:! ]|~)*\\(?:mathrm|text|textrm|rm|mbox)\s*\{\s*"
    rf"(?!(?i:{_MULTIPLIER_WORDS}))[A-Za-zµΩ°%][^{{}}]{{0,20}}\}}"
)
_BARE_NUMBER_BOX = re.compile(r"^\\boxed\s*\{\s*[-+−]?\s*[\d.,]+\s*\}$")
_POWER_OF_TEN_AFTER = re.compile(r"^(?:\s|\\[,;:! ]|~)*(?:\\times|\\cdot|×|·)\s*10\s*\^")
_OPERAND_AFTER = re.compile(
    r"^(?:\s|\\[,;:! ]|~)*(?:\^(?!\s*\{?\s*\\circ)|_\s*\{"  # ^\circ is a degree
    r"|\\(?:times|cdot|div|ast)(?![a-zA-Z])|[×÷]"
    r"|/(?:\s|\\[,;:! ])*(?:\d|\\[dt]?frac|\()|\+\s*[\w\\]|\\(?:pm|mp)(?![a-zA-Z])"
    rf"|\$?\s*(?:\\(?:text|mathrm)\s*\{{\s*)?{_MULTIPLIER_WORDS})",
    re.IGNORECASE,
)


# Words right after a box (and its unit) that make its value another quantity's or another
# unit's: a power in words ("squared", "cubed"), a rate or a share ("per second", "per
# kilogram", "per unit mass"), another system of units ("in cgs units", "(Gaussian units)",
# "in natural units", "(imperial)"), a unit named in words after a verb ("measured in feet",
# "expressed in knots"), a prefixed unit in words the unit reader lacks ("in
# kilo-electronvolts"), a share smaller than one in words ("per cent", "per mille", "‰",
# "basis points", "of a percent", "parts per thousand"). "in SI units", "in metres", "per
# photon" and "(i.e. 15.4 per cent)" name what the box already is, or restate it.
_SYSTEMS = (
    r"(?:cgs|gaussian|natural|imperial|atomic|planck|geometri[sz]ed|esu|emu|heaviside[-\s]lorentz"
    r"|(?:us|u\.s\.)\s+customary|customary|english|fps)"
)
_OTHER_QUANTITY_AFTER = re.compile(
    r"^(?:[\s$,;(\[]|\\[,;:! ]|~)*(?:\\(?:text|mathrm|textrm|mbox)\s*\{\s*)?(?:"
    r"squared|cubed|to\s+the\s+(?:second|third|fourth|\w+th)\s+power"
    r"|per\s+(?:unit\s+\w+|(?:square|cubic)\s+\w+|second|sec|minute|hour|day|week|year|met(?:re|er)"
    r"|(?:centi|milli|kilo)met(?:re|er)|kilogram|gram|lit(?:re|er)|mole|joule|kelvin|degree|volt"
    r"|ampere|coulomb|newton|watt|radian|kg|mol)s?\b"
    rf"|(?:in|using)\s+(?:the\s+)?{_SYSTEMS}\b|{_SYSTEMS}\s+(?:units?|system)\b"
    rf"|{_SYSTEMS}(?=\s*[)\]])"
    r"|(?:measured|expressed|given|quoted|stated|reported|written|converted)\s+(?:in|into)\s+"
    r"(?!SI\b|S\.I\.|(?:the\s+)?(?:same|asked|requested|given|required|stated)\b)[A-Za-z]"
    r"|in\s+(?:kilo|mega|giga|tera|milli|micro|nano|pico|centi)-\w+"
    r"|per\s+cent\b|per\s*mill?e?\b|‰|‱|basis\s+points?\b|bps\b|of\s+a\s+(?:percent|per\s*cent)"
    r"|parts?\s+per\s+(?:hundred|thousand|million|billion))",
    re.IGNORECASE,
)
# "percent" after a bare number is the unit reader's ("\boxed{15.4} percent" is 0.154); after
# a fraction or a formula it is a share no reader reads: "\boxed{\frac{1}{2}} percent"
_PERCENT_WORD_AFTER = re.compile(r"^(?:[\s$]|\\[,;:! ]|~)*(?:percent|pct|ppm|ppb)\b", re.IGNORECASE)


def _other_quantity(box: str, after: str) -> bool:
    """Whether words right after the box (``box`` its source, ``after`` the text after it)
    make its value another quantity's or unit's (see ``_OTHER_QUANTITY_AFTER``)."""
    head = _decoded(after[:_WINDOW])
    if any(
        _OTHER_QUANTITY_AFTER.match(text)
        for text in (head, _UNIT_RIGHT_AFTER.sub("", head, count=1))
    ):
        return True
    return _BARE_NUMBER_BOX.match(box) is None and _PERCENT_WORD_AFTER.match(head) is not None


# A side of the box's own chain that is another value: "$\\frac{1}{3} = \\boxed{\\frac{1}{2}}$",
# "$v = 29.0\\,\\mathrm{m/s} = \\boxed{14.5\\,\\mathrm{m/s}}$", "$\\eta = 2/13 = 0.308 =
# \\boxed{0.154}$": the chain says the box equals a value it is not, and contradicts itself.
# Only sides read for certain are compared: a number, a fraction or root of whole numbers,
# with the same unit as the box or none on either side. Working (``\\frac{12.3}{4.56}``, a
# product), a side in symbols (the label, ``W/Q_H``), and a side in another unit than the
# box's (``4.67\\times10^{-7} = \\boxed{467\\,\\mathrm{nm}}``) are left alone.
_LINK_NUMBER = re.compile(
    r"(?P<sign>[-+−]?)\s*(?:\\[dt]?frac\s*\{\s*(?P<top>\d+)\s*\}\s*\{\s*(?P<bottom>\d+)\s*\}"
    r"|(?P<num>\d+)\s*/\s*(?P<den>\d+)(?![\d.])|\\sqrt\s*\{\s*(?P<root>\d+)\s*\}"
    r"|(?P<mantissa>\d+(?:\.\d+)?)(?:\s*(?:\\times|×|\\cdot)\s*10\s*\^\s*"
    r"\{?\s*(?P<power>[-+−]?\d+)\s*\}?|[eE](?P<exp>[-+]?\d+))?(?![\d.]))"
)
# what may follow the number: spacing and a unit (``\\,\\mathrm{m/s}``, ``\\text{ s}``, "m/s")
_LINK_UNIT = re.compile(
    r"(?:\\[,;:! ]|~|\s)*(?P<unit>(?:\\(?:mathrm|text|textrm|rm|mbox)\s*\{[^{}]*\}"
    r"|\\%|[A-Za-zµΩ°%Å][\w/^{}\-]*)(?:\s*\^\s*\{?\s*-?\d\s*\}?)?)?\s*$"
)
_UNIT_WRAPPER = re.compile(
    r"\\(?:mathrm|text|textrm|rm|mbox)\s*\{([^{}]*)\}"
)  # "\\,\\mathrm{s}" is "s"
_LARGEST_POWER = 300  # of ten, and digits: beyond it a float overflows
_LINK_TOLERANCE = 0.01  # a relative gap the rounding of a written value may leave
# what ends a chain before the box: a list's comma, a quad, an implication, joining words
_LINK_SEPARATOR = re.compile(
    r"(?<!\\),\s|;|\\q?quad(?![a-zA-Z])|\\implies|\\iff|\\therefore|⇒|→|∴"
    r"|\\(?:[Ll]ong)?(?:[Rr]ight|[Ll]eftright)arrow|\\to(?![a-zA-Z])"
    r"|\\text\s*\{\s*(?:so|and|thus|hence|then|i\.e\.|where|with|for|if|or)\b[^{}]*\}?"
)


def unwrapped(text: str) -> str:
    """``text`` with its text and roman wrappers taken off (``\\,\\mathrm{s}`` is ``\\,s``,
    ``\\text{so}`` is ``so``): what is written, whatever face it is set in."""
    return _UNIT_WRAPPER.sub(r"\1", text)


# the quantity written right before an interval's box: "$\\frac{m_2}{m_1} \\in \\boxed{…}$"
_BOUNDED_BEFORE = re.compile(
    r"(?:^|[$,;]|\\\(|\\\[)\s*(?P<variable>[^$,;]{1,40}?)\s*(?:\\in\b|∈)\s*$"
)
_SPACING_BEFORE = re.compile(
    r"^(?:\s|\\(?:[hv]space\*?\s*\{[^{}]*\}|q?quad(?![a-zA-Z])|[,;:! ]"
    r"|kern\s*-?[\d.]+\s*[a-z]{2}))*"
)
# a name written right before a box: "$T_C = \\boxed{…}$", "- $T_B$: $\\boxed{…}$"
_LABEL_BEFORE = re.compile(
    r"(?P<label>\\?[A-Za-z]+(?:_\s*(?:\{[^{}]*\}|\\?\w))?'*)\$?\s*(?:=|:)\s*\$?\s*$"
)


def bounded_before(before: str) -> str | None:
    """The quantity written right before a box with a membership sign, spacing aside
    (``\\frac{m_2}{m_1} \\in \\boxed{(0, 1]}`` bounds the ratio), or None."""
    bounded = _BOUNDED_BEFORE.search(before[-80:])
    if bounded is None:
        return None
    return _SPACING_BEFORE.sub("", bounded.group("variable")).strip()


def label_before(before: str) -> str | None:
    """The name written right before a box with ``=`` or ``:`` (``$T_C = \\boxed{…}$``,
    ``- $T_B$: $\\boxed{…}$``), or None."""
    match = _LABEL_BEFORE.search(before[-40:])
    return match.group("label") if match is not None else None


def _link_value(side: str) -> tuple[float, str] | None:
    """A chain side read for certain as ``(value, unit)`` (the unit as written, spacing
    gone), or None (see ``_LINK_NUMBER``)."""
    side = side.strip()
    number = _LINK_NUMBER.match(side)
    unit = _LINK_UNIT.fullmatch(side, number.end()) if number is not None else None
    if number is None or unit is None:
        return None
    found = number.groupdict()
    if found["mantissa"] is not None:
        power = int((found["power"] or found["exp"] or "0").replace("−", "-"))
        if abs(power) > _LARGEST_POWER or len(found["mantissa"]) > _LARGEST_POWER:
            return None  # no measured value is written so; a float would overflow
        value = float(found["mantissa"]) * 10.0**power
    elif found["root"] is not None:
        value = float(found["root"]) ** 0.5
    else:
        bottom = int(found["bottom"] or found["den"])
        if bottom == 0:
            return None
        value = int(found["top"] or found["num"]) / bottom
    written = re.sub(r"\s+", "", _UNIT_WRAPPER.sub(r"\1", unit.group("unit") or ""))
    return (-value if found["sign"] in ("-", "−") else value), written


# the relations a chain's sides are joined by: "=", and the approximate equalities the
# normaliser reads as "=" ("v \\approx 29.0 = \\boxed{…}" says the box is about 29.0)
_CHAIN_RELATION = re.compile(r"(?<![\\!<>])=|\\(?:approx|simeq)(?![a-zA-Z])|≈|≃")


def chain_sides(before: str) -> tuple[str, ...]:
    """The sides of the chain the box closes, in the math it stands in back to a separator
    (``"$x = \\frac{d}{3} = "`` gives ``x`` and ``\\frac{d}{3}``; see ``_LINK_SEPARATOR``):
    a chain says each side equals the box. Empty where the box follows no "=" of a chain."""
    _, label = _split_label(before)
    label = _MATH_OPEN.sub("", label, count=1)
    sides = _CHAIN_RELATION.split(_LINK_SEPARATOR.split(label)[-1])
    if len(sides) < 2 or sides[-1].strip():
        return ()  # the box does not follow an "=" of its chain
    return tuple(side.strip() for side in sides[:-1])


def written_unit(side: str) -> str | None:
    """The unit of a chain side that is a value written out (a number, a fraction or root of
    whole numbers, a power of ten, then a unit or none: ``""``), which a reader takes for
    certain (see ``_LINK_NUMBER``); None for anything else (working in numbers, a formula)."""
    value = _link_value(side)
    return None if value is None else value[1]


def _contradicting_link(before: str, box: str) -> bool:
    """Whether a side of the box's chain before it (:func:`chain_sides`) is a value other
    than the box's (see ``_LINK_NUMBER``)."""
    inner = box[box.find("{") + 1 : -1] if box.endswith("}") else ""
    boxed = _link_value(inner)
    if boxed is None:
        return False
    for side in chain_sides(before):
        value = _link_value(side)
        if value is None or value[1] != boxed[1]:
            continue
        if _apart(value[0], boxed[0]):
            return True
    return False


# A check right after a box without a unit that evaluates to another number: "(Numerically,
# $W/Q_H = 0.308$.)", "Check: $1 - Q_C/Q_H = 0.308$.", "Evaluating $…$ gives $0.333$." beside
# \\boxed{0.154} or \\boxed{\\frac{1}{2}}: the output's own arithmetic contradicts the box. Only
# a bare number beside a box without a unit is compared: beside ``467\\,\\mathrm{nm}`` a bare
# ``4.67\\times10^{-7}`` is the same length in metres, and ``v^2 = 210`` checks the square.
_CHECK = re.compile(
    r"(?:^|\n|[.!?]\s+|\(\s*)(?:numerically|plugging\s+in|evaluating|check(?:ing)?|as\s+a\s+check"
    r"|sanity\s+check|verification|verifying|substituting|in\s+numbers)\b[^$\n]{0,40}"
    r"\$(?P<math>[^$]{1,200})\$(?:\s*(?:gives|yields|is|equals)\s*\$(?P<result>[^$]{1,40})\$)?",
    re.IGNORECASE,
)
_CHECK_CHARS = 3 * _WINDOW  # text after the box where a check is read
# a check of a power, root or logarithm of one quantity: "$v^2 = 210$", "$\\ln\\eta = -1.87$"
_POWER_SIDE = re.compile(
    r"^\s*(?:\\?[A-Za-z]+(?:_\s*\{?[\w\\]+\}?)?\s*\^|\\(?:sqrt|ln|log|exp|sin|cos|tan)(?![a-zA-Z]))"
)


def _contradicting_check(box: str, after: str) -> bool:
    """Whether a check right after a box without a unit evaluates to another number (see
    ``_CHECK``)."""
    inner = box[box.find("{") + 1 : -1] if box.endswith("}") else ""
    boxed = _link_value(inner)
    if boxed is None or boxed[1]:
        return False
    for check in _CHECK.finditer(after[:_CHECK_CHARS]):
        sides = re.split(r"(?<![\\!<>])=", check.group("math"))
        if check.group("result") is not None:
            sides.append(check.group("result"))
        if len(sides) < 2 or _POWER_SIDE.match(sides[0]):
            continue
        value = _link_value(sides[-1])
        if value is not None and not value[1] and _apart(value[0], boxed[0]):
            return True
    return False


def _apart(first: float, second: float) -> bool:
    """Whether two values differ by more than the rounding of a written value can explain."""
    return abs(first - second) > _LINK_TOLERANCE * max(abs(first), abs(second))


def _operand_before(before: str) -> bool:
    """Whether an operation right before a box makes the answer a function of it (see
    ``_OPERAND_BEFORE``); a sign that opens a line is a bullet."""
    match = _OPERAND_BEFORE.search(before)
    if match is None:
        return False
    if match.group("sign") is not None:
        line = before[: match.start()].rsplit("\n", 1)[-1]
        if match.group("sign") == "+" and _UNARY_BEFORE.search(line):
            return False  # "v = +\\boxed{60 cm}": a sign convention, the value itself
        return bool(line.strip())
    return True


# what may stand before a unary sign: a relation, an opening bracket, the math's start
_UNARY_BEFORE = re.compile(r"(?:^|[=(\[{$,:]|\\\(|\\\[|\\approx)\s*$")


def operands(text: str, spans: list[tuple[int, int]]) -> list[bool]:
    """For each box (its span in ``text``), whether an operation written right around it
    makes the answer a function of the box (``v = 2\\boxed{…}``, ``\\boxed{…}^{-1}``): the
    box alone is not what the output claims."""
    if not spans:
        return []
    befores, afters = _around(text, spans)
    found = []
    for before, after, (start, end) in zip(befores, afters, spans, strict=True):
        # a unit group after the box is the box's own (its powers and products too:
        # ``\\boxed{3}\\,\\mathrm{m}^2``), and so is a power of ten after a bare number
        # (``\\boxed{5.54}\\times10^{3}\\,\\mathrm{s}``): the verifier reads them with the value
        bare = _BARE_NUMBER_BOX.match(text[start:end]) is not None
        rest = "" if _UNIT_RIGHT_AFTER.match(after) else after
        if bare and _POWER_OF_TEN_AFTER.match(rest):
            rest = ""
        negated = _NEGATION_BEFORE.search(before) is not None and bool(
            _CHOICE_CONTENT.match(text[start:end])
        )
        found.append(
            _operand_before(before)
            or negated
            or _transformed_side(before)
            or _OPERAND_AFTER.match(rest) is not None
            or _other_quantity(text[start:end], after)
            or _contradicting_link(before, text[start:end])
            or _contradicting_check(text[start:end], after)
        )
    return found


def denials(text: str, spans: list[tuple[int, int]], question: str | None = None) -> list[bool]:
    """For each box (its span in ``text``), whether the output takes it back: the prose right
    before it denies it ("it is not", "wrong:", ``\\neq``) or the prose right after it does
    ("is wrong", "(incorrect)"). A denial covers a whole list: "it is not \\boxed{a},
    \\boxed{b}" denies both boxes, and so does "\\boxed{a}, \\boxed{b} is wrong"."""
    if not spans:
        return []
    befores, afters = _around(text, spans)
    gaps = befores[1:]
    before = [_denied_before(_window_before(b)) for b in befores]
    after = [
        bool(_DENIAL_AFTER.match(_plain(_same_paragraph(a[:_WINDOW]))))
        or _unequal_to_itself(text[start:end], a)
        or _eliminates_itself(text[start:end], a)
        for a, (start, end) in zip(afters, spans, strict=True)
    ]
    listed = [bool(_LIST_GAP.match(_plain(gap))) for gap in gaps]
    for index in range(1, len(spans)):  # "not a, b": the denial runs on through the list
        before[index] = before[index] or (before[index - 1] and listed[index - 1])
    for index in range(len(spans) - 2, -1, -1):  # "a, b is wrong": back through the list
        after[index] = after[index] or (after[index + 1] and listed[index])
    marked = [_disowned(b, a) for b, a in zip(befores, afters, strict=True)]
    for index, compared in enumerate(_compared(befores, question)):
        marked[index] = marked[index] or compared
    flags = zip(before, after, marked, uncommitted(text, spans), strict=True)
    return [any(flag) for flag in flags]


# A negated relation after the box and then its own value: "$\\boxed{14.5\\,\\mathrm{m/s}}
# \\neq 14.5\\,\\mathrm{m/s}$" says the value is not itself, and so commits to nothing ("≠
# 29.0 m/s" beside it compares it with another value and stands)
_UNEQUAL_AFTER = re.compile(
    rf"^(?:[\s$]|\\[,;:! ])*(?:{NEGATED_RELATION}|!=|≠)\s*(?P<value>[^$\n]{{1,60}}?)\s*"
    r"(?:\$|\\\]|\\\)|[.,;]?\s*$|[.,;]\s)"
)


def _unequal_to_itself(box: str, after: str) -> bool:
    """Whether a negated relation right after the box compares it with its own value (see
    ``_UNEQUAL_AFTER``)."""
    match = _UNEQUAL_AFTER.match(after[:_WINDOW])
    inner = box[box.find("{") + 1 : -1] if box.endswith("}") else ""
    boxed = _link_value(inner)
    if match is None or boxed is None:
        return False
    stated = _link_value(match.group("value"))
    return stated is not None and stated[1] == boxed[1] and not _apart(stated[0], boxed[0])


# ---------------------------------------------------------------------------------------------
# boxes the output does not commit to
# ---------------------------------------------------------------------------------------------
# A box is an answer only where the output stands behind it. Stated doubt, a question, a
# draft, someone else's claim or an imprecision around a box make it no committed value: such
# a box is taken back together with every box before it (a guess after an earlier box does
# not revive that box), and a label before a box runs on through the boxes of its clause
# ("Guessing: $s = \\boxed{…}$, $E = \\boxed{…}$"). A later box in a new clause ("Draft
# answer: \\boxed{…} … Final answer: \\boxed{…}") is still the answer.

_PERCENT = r"(?:%|\\%|\s*percent\b|\s*per\s*cent\b)"
_NUMBER = r"(?:\d{1,3}(?:\.\d+)?|\.\d+)"
_ABOUT = r"(?:about|around|roughly|only|maybe|perhaps|~|≈|∼|\\approx|\\sim)?\s*"
# A confidence below certainty stated for the answer, its number read as a share of one:
# "(I'm ~60% sure)", "40% confident", "Confidence: 55%", "[confidence 0.3]", "p(correct) ≈
# 0.5", "Probability this is correct: ~0.5", "(probability ≈ 0.6 that this is right)",
# "With probability 0.6 the answer is", "with about 50% probability", "a 40% chance this is
# right". A probability the question asks for is no confidence: "the probability is 0.36",
# "a 36% chance of transmission" name no answer and no writer; a "confidence interval" or
# "confidence level" is about data.
_STATED_CONFIDENCE = re.compile(
    rf"{_NUMBER}{_PERCENT}\s*(?:sure|confident|certain)\b"
    rf"|\bwith\s+{_ABOUT}{_NUMBER}{_PERCENT}\s*(?:probability|confidence|certainty|chance"
    r"|likelihood)\b"
    rf"|{_NUMBER}{_PERCENT}\s*(?:chance|probability|likelihood)\s+(?:that\s+)?(?:this|it|I|the"
    r"\s+answer|my\s+answer)\b"
    rf"|\b(?:confidence|certainty|credence)(?!\s+(?:interval|level|limit|band|region|bound))"
    rf"\s*[:=(]?\s*(?:of\s+|is\s+|at\s+)?{_ABOUT}{_NUMBER}"
    rf"|{_NUMBER}{_PERCENT}\s*confidence\b(?!\s+(?:interval|level|limit|band|region|bound))"
    rf"|\bp\s*\(\s*(?:correct|right|true|this)\s*\)\s*(?:[=:≈~]|is|of)?\s*{_ABOUT}{_NUMBER}"
    r"|\b(?:probability|chance|likelihood)\s+(?:that\s+)?(?:this|it|the\s+answer|my\s+answer)"
    rf"\s+is\s+(?:correct|right)\s*(?:[:=≈~]|is|of)?\s*{_ABOUT}{_NUMBER}"
    rf"|\b(?:probability|chance|likelihood)\s*(?:[=≈~]|of|is|about)?\s*{_ABOUT}{_NUMBER}"
    r"(?:%|\\%)?\s*(?:that\s+)?(?:this|it|the\s+answer|my\s+answer)\s*(?:is|'s|’s)\s+(?:right"
    r"|correct)"
    rf"|\bwith\s+probability\s*(?:[=≈~]|of|about)?\s*{_ABOUT}{_NUMBER}(?:%|\\%)?\s*,?\s*(?:the"
    r"\s+answer|it|this|I)\b",
    re.IGNORECASE,
)
_CERTAIN = 0.9  # a stated confidence at or above this is a claim, not a doubt
# Doubt in words: "50/50", "a coin flip", "low confidence", "I'm not sure", "Not confident
# here", "unsure", "tentatively", a guess ("Guessing:", "My best guess", "A rough guess:", "I'd
# guess"). "I'm sure", "I'm confident that" and "high confidence" are claims.
_DOUBT_WORDS = re.compile(
    r"\b(?:50\s*/\s*50|fifty[-\s]fifty|coin[-\s]?(?:flip|toss)|toss[-\s]?up|(?:low|little|no"
    r"|limited|moderate|medium)[-\s]+confidence|not\s+(?:very\s+|too\s+|that\s+|fully\s+"
    r"|entirely\s+|completely\s+|at\s+all\s+)?(?:sure|confident|certain)\b(?!\s+(?:why|how|if"
    r"|whether|what|which))|unsure|tentative(?:ly)?|(?:best|rough|wild|educated|blind|random"
    r"|quick|pure|my)\s+guess|guess(?:ing|timate)?(?:\s+(?:now|here|again|then))?\s*[:(\-–—]|I['’]?d\s+guess|I\s+(?:would"
    r"|will)\s+guess|shot\s+in\s+the\s+dark|hunch)"
    r"(?!\w)",
    re.IGNORECASE,
)


def _doubt(scope: str) -> bool:
    """Whether ``scope`` (the prose of a box's sentence) states doubt in the answer: a
    confidence below :data:`_CERTAIN` (``_STATED_CONFIDENCE``) or words of doubt."""
    if _DOUBT_WORDS.search(scope):
        return True
    stated = _STATED_CONFIDENCE.finditer(scope)
    return any(_share(found.group(0)) < _CERTAIN for found in stated)


_FIGURE = re.compile(r"\d{1,3}(?:\.\d+)?|\.\d+")
_PERCENT_SIGN = re.compile(r"%|percent|per\s*cent", re.IGNORECASE)


def _share(stated: str) -> float:
    """The number in a stated confidence or spread as a share of one ("60%" and "0.6" are
    0.6; a number above one is a percentage)."""
    figure = _FIGURE.search(stated)
    number = float(figure.group()) if figure else 0.0
    return number / 100 if number > 1 or _PERCENT_SIGN.search(stated) else number


# A draft, a placeholder or a value still to be checked: "Draft answer:", "Preliminary
# answer:", "Tentative:", "Working answer, not final:", "(pending verification)",
# "[unverified]", "(placeholder)", "(TODO: double-check)", "(to be revised)", "(first pass;
# likely to change)". "After verification, the final answer is" is final.
_PROVISIONAL_LABEL = re.compile(
    r"\b(?:draft|preliminary|provisional|tentative|interim|temporary|placeholder|unverified"
    r"|unchecked|working|first[-\s]pass)(?:\s+(?:answer|result|value|solution|estimate|guess))?"
    r"\s*(?:,\s*not\s+(?:yet\s+)?final)?\s*[:\-–—]\s*$",
    re.IGNORECASE,
)
_PROVISIONAL_WORDS = re.compile(
    r"\b(?:pending|TODO|FIXME|TBD|placeholder|unverified|unchecked|not\s+(?:yet\s+)?final"
    r"|not\s+(?:yet\s+)?(?:verified|checked|confirmed|double[-\s]checked)|first\s+pass"
    r"|(?:likely|subject|liable)\s+to\s+(?:change|revision)|to\s+be\s+(?:verified|checked"
    r"|confirmed|revised|updated|double[-\s]checked)|(?:needs?|requires?)\s+(?:checking"
    r"|verification|confirmation|double[-\s]checking)|will\s+(?:revise|update|double[-\s]check"
    r"|re-?check)|provisional|preliminary)\b",
    re.IGNORECASE,
)
# An imprecision stated before the box (the words round 7 reads after it, ``_QUALIFIER``):
# "Order of magnitude:", "To within a factor of ten,", "Up to a factor of 2,", "Within about
# 30%,", "Very roughly (±50%),", "Give or take a factor of two,", "Back-of-the-envelope:",
# "Ballpark figure:", "As a crude estimate,", "The answer, good to a factor of two, is", "The
# answer (only up to sign) is". "To three significant figures," and "Roughly," are precise
# enough: a spread of a few percent is a precision, not a doubt.
_IMPRECISION_BEFORE = re.compile(
    r"(?:to\s+)?within\s+(?:about\s+|roughly\s+|some\s+|±\s*)?(?:a\s+|an\s+|one\s+|two\s+)?"
    r"(?:factor|orders?\s+of\s+magnitude)"
    rf"|(?:within|(?:\\pm|±|\+/-|\+-))\s*(?:about\s+|roughly\s+|some\s+|±\s*)?{_NUMBER}\s*{_PERCENT}"
    r"|up\s+to\s+(?:an?\s+|the\s+|its\s+|one\s+|some\s+|overall\s+)?(?:(?:overall|constant"
    r"|numerical|multiplicative|numeric|dimensionless|order[-\s]one)\s+)*(?:factors?|signs?"
    r"|constants?|normali[sz]ation|prefactors?|phases?|orders?\s+of\s+magnitude)\b"
    r"|give\s+or\s+take|more\s+or\s+less\b|orders?[-\s]+of[-\s]+magnitude"
    r"|good\s+to\s+(?:within\s+)?(?:a|an|one|two|\d+)\s+(?:factor|order)"
    r"|ballpark|back[-\s]of[-\s](?:the[-\s])?envelope|crude(?:ly)?|very\s+rough(?:ly)?"
    r"|wild\s+estimate|(?:leading|first|lowest|zeroth)[-\s]+order\s+only",
    re.IGNORECASE,
)
_PRECISE_SPREAD = 5.0  # percent: "to within 1%" states a precision


def _imprecise(scope: str) -> bool:
    """Whether ``scope`` (the prose before a box, in its sentence) says the value holds only
    up to a spread or a factor (see ``_IMPRECISION_BEFORE``)."""
    for found in _IMPRECISION_BEFORE.finditer(scope):
        spread = found.group(0)
        if not _PERCENT_SIGN.search(spread) or 100 * _share(spread) >= _PRECISE_SPREAD:
            return True
    return False


# Someone else's value reported without endorsement: "A classmate got", "The textbook claims",
# "My friend says", "According to the answer key,", "ChatGPT says", "Some sources give", "One
# might think". Endorsed it is the writer's too: "The answer key also gives …, which matches
# my derivation", "As the textbook confirms,", "…, and I agree".
_SOURCES = (
    r"(?:classmates?|friends?|textbooks?|books?|(?:answer|solution)\s+keys?|key"
    r"|official\s+(?:solution|answer)s?|solutions?\s+manual|(?:the\s+)?back\s+of\s+the\s+book"
    r"|teachers?|professors?|tutors?|instructors?|TAs?|lecturers?|chatgpt|gpt-?\d\w*|claude"
    r"|gemini|copilot|(?:an?\s+)?(?:ai|llm|chatbot)|(?:the\s+)?internet|sources?|websites?"
    r"|wikipedia|someone|somebody|others|people|students?|peers?|(?:online\s+)?forums?"
    r"|references?|authors?|(?:study\s+)?partners?|roommates?|siblings?|brother|sister|dad|mom"
    r"|father|mother|colleagues?|reddit|stack\s*exchange|google)"
)
_ATTRIBUTED = re.compile(
    rf"\b(?:(?:a|my|one|some|the|our|another|other|an|several|many)\s+)?{_SOURCES}\s+"
    r"(?:(?:\w+ly|also|still|even)\s+)?(?:got|gets|says|said|claims?|claimed|states?|stated"
    r"|gives?|gave|reports?|reported|suggests?|suggested|insists?|insisted|thinks?|thought"
    r"|believes?|believed|wrote|writes|lists?|listed|argues?|argued|answered|answers?|puts?"
    r"|marks?|marked|came\s+up\s+with|arrived\s+at|found|finds|computed|obtained|proposes?"
    r"|proposed|prints?|printed|shows?|showed)\b"
    rf"|\baccording\s+to\s+(?:the\s+|my\s+|a\s+|an\s+|some\s+|our\s+)?{_SOURCES}"
    r"|\b(?:one|some|many|you|people|students|others)\s+(?:might|may|could|would)\s+(?:think"
    r"|say|argue|claim|expect|guess|answer|believe)"
    r"|\bit\s+is\s+(?:often|sometimes|commonly|widely|usually)\s+(?:claimed|said|stated"
    r"|believed|given)",
    re.IGNORECASE,
)
_ENDORSED = re.compile(
    r"\b(?:also|too|as\s+well|confirm\w*|agrees?|agreed|agreement|match\w*|consistent|correctly"
    r"|rightly|as\s+(?:I|we)\s+(?:found|got|derived|showed|computed)|I\s+concur)\b",
    re.IGNORECASE,
)
# the writer's doubt in what the source gives: "but I'm not convinced", "which I doubt", "; I
# disagree", "I don't buy it"
_DISPUTED = re.compile(
    r"\b(?:not\s+convinced|(?:I|we)\s+doubt|which\s+I\s+doubt|doubtful|dubious|disagree\w*"
    r"|(?:I|we)\s+don['’]?t\s+(?:buy|believe|trust|think\s+so)|skeptical|sceptical)\b",
    re.IGNORECASE,
)


def _attributed(prose: str, after: str) -> bool:
    """Whether the box is someone else's claim the writer does not endorse: a source before
    it in its sentence (``_ATTRIBUTED``) with no endorsement there or in the sentence after
    the box (``_ENDORSED``); or the writer disputing it right after the box."""
    if _DISPUTED.search(after):
        return True
    found = _ATTRIBUTED.search(prose)
    if found is None:
        return False
    endorsed = _ENDORSED.search(prose[found.start() :]) or _ENDORSED.search(after)
    return endorsed is None


# Two values called right together: "Both \\boxed{A} and $C$ work", "Both … and … are
# defensible / can be argued / are correct"; after the box "— though D fits equally well".
# "Both methods give \\boxed{B}" and "Both roots are physical: \\boxed{…} or \\boxed{…}" name
# two ways to one value, or the asked values themselves.
_BOTH_BEFORE = re.compile(r"\bboth\s*$", re.IGNORECASE)
_ACCEPT_BOTH = re.compile(
    r"\b(?:accept|take|give|allow|keep|choose|pick|consider|count|mark)\s+both\s*$", re.IGNORECASE
)
_PROSE_PIECE = r"(?:[^.;!?]|\.(?=\d))"  # a decimal point ends no clause: "and 29.0 m/s work"
_BOTH_AFTER = re.compile(
    rf"^[\s$.,;)]*(?:and|&)\s+{_PROSE_PIECE}{{1,60}}?(?:\b(?:work|works|fit|fits|hold|holds"
    r"|apply|applies)\b|\b(?:are|is|both|can|could|would|seem|seems)\b"
    rf"{_PROSE_PIECE}{{0,30}}?\b(?:correct|right|valid|defensible|acceptable|argued|possible"
    r"|plausible|fine|true|answers?|justified|reasonable|work)\b)",
    re.IGNORECASE,
)
_AND_MORE = re.compile(r"^[\s$.,;)]*(?:and|&)\s+\S", re.IGNORECASE)
_EQUALLY_AFTER = re.compile(
    r"^[\s$.,;:)—–-]*(?:though|but|although|yet|and|while|however)\s*,?\s+"
    rf"{_PROSE_PIECE}{{1,40}}?\s+(?:fits|works|is|seems|looks|reads|does|would\s+be|could\s+be)"
    r"\s+(?:equally|just\s+as|also\s+equally)\s+(?:well|good|valid|plausible|likely|correct|right"
    r"|defensible|fine)",
    re.IGNORECASE,
)
# A box put as a question: "\\boxed{B}?", "\\boxed{B} (?)", "\\boxed{B}, maybe?", a relation
# with a question mark before it (``\\stackrel{?}{=}``, ``\\overset{?}{=}``, ``=^{?}``,
# ``\\questeq``, ≟, ``\\mathrel{?=}``), a question that ends after it ("Is it \\boxed{B}?",
# "Could it be …?"). "Is the answer 0.308? No. \\boxed{0.154}" asks about another value.
_QUESTION_AFTER = re.compile(
    r"^(?:\s|\$|\\[,;:! )\]]|~|\xa0)*(?:\(\s*\?+\s*\)|\[\s*\?+\s*\]|\?)"
    r"|^[\s$.,;)]*(?:maybe|perhaps|possibly|probably|right|correct|or\s+not|or\s+so|I\s+think"
    r"|I\s+guess|I\s+wonder|I\s+suppose|no)\s*\?",
    re.IGNORECASE,
)
_QUESTION_RELATION = re.compile(
    r"(?:(?:\\stackrel|\\overset)\s*\{\s*\?\s*\}\s*\{\s*(?:=|\\[a-z]+)\s*\}|=\s*\^\s*\{?\s*\?"
    r"|\\questeq(?![a-zA-Z])|≟|\\mathrel\s*\{\s*\?\s*=\s*\}|\?\s*=)[^=]*$"
)
_QUESTION_BEFORE = re.compile(
    r"(?:^|[.!?;:¶…]\s*|\b(?:so|then|hmm|but|or)\s*,?\s+)(?:is|could|might|would|can|should"
    r"|may|isn['’]t|wouldn['’]t|couldn['’]t|does|do)\s+(?:it|this|that|the\s+(?:answer|value"
    r"|result|solution))\b[^.!?]{0,20}$",
    re.IGNORECASE,
)
_QUESTION_ENDS = re.compile(r"^[^.!?\n]{0,60}\?")
_AFFIRMED = re.compile(
    r"^[^.!?\n]{0,60}\?+\s*(?:yes|yep|yeah|indeed|exactly|correct|right|it\s+is|that['’]s\s+it)\b",
    re.IGNORECASE,
)
# A mark or words that disown the box: a cross or thumbs-down before it past its label ("❌
# $\\eta = \\boxed{…}$"), after it ``\\xmark``, 👎, "— NOT!", "(sarcasm)", "/s", "said no one
# ever", "<- nope"; a label under or over it that judges it (``\\underbrace{\\boxed{…}}_{\\text
# {wrong}}``, "not this", "discarded", ``\\times``). Check marks (✓ ✅ ``\\checkmark``) and a
# label "final" endorse it.
_MARK_BEFORE = re.compile(r"(?:❌|🚫|👎|✗|✘|✖|⛔|🛑|\\xmark|\\ding\{55\})\s*[:\-–—]?\s*$")
_DISOWNED_AFTER = re.compile(
    r"^[\s$.,;:)]*(?:\\xmark(?![a-zA-Z])|\\ding\{5[56]\}|👎|⛔|🛑|🙅"
    r"|[-–—]*\s*(?-i:NOT|Not)\s*!"
    r"|[(\[]\s*(?:sarcasm|sarcastic(?:ally)?|irony|ironic(?:ally)?|kidding|joking|jk|not|/s)\s*[)\]]"
    r"|/s(?=\s*(?:$|[.!\n]))|said\s+no\s*(?:one|body)\s+ever"
    r"|(?:<-+|←|⟵|<=)\s*(?:nope|no|wrong|not\s+(?:this|it)|incorrect|bad))",
    re.IGNORECASE,
)
_BRACED_BEFORE = re.compile(r"\\(?:underbrace|overbrace|underset|overset)\s*\{\s*$")
_JUDGING_LABEL = re.compile(
    r"^\s*\}\s*[_^]\s*\{?\s*(?:\\(?:text\w*|mathrm|mbox|textbf|mathbf)\s*\{\s*)?"
    r"(?:wrong|incorrect|false|bad|invalid|no(?:pe)?|not\s+(?:this|it|that|correct|right|the"
    r"\s+answer|valid)|discard\w*|reject\w*|ignore\w*|scratch\w*|struck|crossed\s+out|\\times"
    r"|\\xmark|\\not(?![a-zA-Z])|×|✗|❌|✘|✖)",
    re.IGNORECASE,
)
_MATH_OPEN = re.compile(r"\$\$|\\\[|\\\(|(?<!\\)\$")
_SENTENCE_BREAK = re.compile(r"(?<!\d)[.!?](?=\s|$)|[.!?](?=\s+[A-Z])|¶|;")


def _split_label(before: str) -> tuple[str, str]:
    """``before`` split into the prose and the math the box stands in (``"$\\eta = "``), when
    it is in math: cues are read in the prose, relations in the math."""
    if not _box_in_math(before):
        return before, ""
    opens = list(_MATH_OPEN.finditer(before))
    if not opens:
        return before, ""
    start = opens[-1].start()
    return before[:start], before[start:]


def _sentence_before(prose: str) -> str:
    """The box's sentence up to the box, as :func:`_window_before` reads it; where the box
    all but opens its sentence ("Confidence: 55%. \\boxed{…}"), the sentence before it too."""
    window = _window_before(prose)
    parts = _SENTENCE_BREAK.split(window)
    last = parts[-1]
    if len(parts) > 1 and len(last.split()) <= 2:
        last = parts[-2] + ". " + last
    return last


def _sentences_after(after: str) -> tuple[str, str]:
    """The rest of the box's sentence after it and the sentence after that, as
    :func:`_plain` reads them, within the box's paragraph."""
    text = _plain(_same_paragraph(_decoded(after[: 2 * _WINDOW])))
    ends = [m.end() for m in _SENTENCE_BREAK.finditer(text)] + [len(text)]
    return text[: ends[0]], text[ends[0] : ends[1]] if len(ends) > 1 else ""


_NOTE_WORDS = 6  # a confidence stated in the next sentence only as a short note of its own


def _questioned(label: str, ahead: str, raw: str) -> bool:
    """Whether a box is put as a question (see ``_QUESTION_AFTER``): ``label`` the math before
    it, ``ahead`` its sentence before it, ``raw`` the text right after it."""
    plain = _plain(raw)
    if _AFFIRMED.match(plain):
        return False  # "Is it \\boxed{B}? Yes: …" answers its own question
    return (
        _QUESTION_AFTER.match(raw) is not None
        or _QUESTION_AFTER.match(plain) is not None
        or _QUESTION_RELATION.search(label) is not None
        or (_QUESTION_BEFORE.search(ahead) is not None and _QUESTION_ENDS.match(plain) is not None)
    )


def _both_right(ahead: str, behind: str) -> bool:
    """Whether the box and another value are called right together (see ``_BOTH_AFTER``)."""
    return (
        (_BOTH_BEFORE.search(ahead) is not None and _BOTH_AFTER.match(behind) is not None)
        or (_ACCEPT_BOTH.search(ahead) is not None and _AND_MORE.match(behind) is not None)
        or _EQUALLY_AFTER.match(behind) is not None
    )


def _open_box(before: str, after: str) -> bool:
    """Whether the prose around one box (``before`` back to the previous box, ``after`` up to
    the next) leaves it open: doubt, a question, a draft, someone else's claim, an imprecision,
    two values called right together, or a counterfactual setup in the box's sentence ("Had
    the carts bounced apart, the answer would be \\boxed{B}": a value for another problem)."""
    prose, label = _split_label(before)
    ahead = _sentence_before(prose)
    behind, note = _sentences_after(after)
    return (
        _doubt(ahead)
        or _doubt(behind)
        or (len(note.split()) <= _NOTE_WORDS and _doubt(note))  # "\\boxed{B}. Confidence: 60%."
        or _questioned(label, ahead, _decoded(after[:_WINDOW]))
        or _PROVISIONAL_LABEL.search(ahead) is not None
        or _PROVISIONAL_WORDS.search(behind) is not None
        or _attributed(ahead, behind)
        or _imprecise(ahead)
        or _both_right(ahead, behind)
        or _COUNTERFACTUAL.search(ahead) is not None  # "If the mass were doubled, \\boxed{…}"
    )


# A box given for comparison, not as the answer: "(For comparison, without drag one would get
# \\boxed{5.0 m}.)", "For reference, the textbook idealisation gives \\boxed{…}" (red team
# r22a: the last box was read as the answer)
_COMPARISON_WORDS = re.compile(r"\b(?:for|by)\s+(?:comparison|reference|contrast)\b", re.IGNORECASE)
_COMPARISON_BEFORE = re.compile(
    _COMPARISON_WORDS.pattern
    # not where the box's own sentence calls it the answer: "By contrast with that slip, the
    # corrected height is \boxed{…}" (red team r23a)
    + r"(?!(?:[^.!?\n]|\.(?=\d)){0,100}\b(?:answer|correct(?:ed|ly)?|final|actual(?:ly)?|true"
    r"|real)\b)(?:[^.!?\n]|\.(?=\d)){0,100}$",
    re.IGNORECASE,
)


# what makes a comparison's box another case than the asked one: it is hypothetical ("for
# comparison, a frictionless block would reach …"), another model's or state's ("the
# classical formula gives", "at 20 °C it was"), or another part's ("For reference, part (b):")
_OTHER_CASE = re.compile(
    r"\b(?:would|could|if|without|ignoring|neglecting|ideal\w*|naive|textbook|instead|had"
    r"|frictionless|dragless|no\s+(?:drag|friction|air)|earlier|previous|classical(?:ly)?"
    r"|newtonian|non-?relativistic|approximat\w*|estimate\w*|was|were|initial(?:ly)?|before)\b"
    r"|\bpart\s*\(?[a-z]\b"
    # another object or setting: "a hoop reaches only …", "at 24 V it stores …", "on the Moon"
    r"|\b(?:an?\s+(?!value\b|result\b)(?:[\w.μ]+\s+){1,3}(?:would|reaches|gives|has|holds"
    r"|stores|gets|takes|climbs|rises|is)|moon|mars|jupiter|venus)\b",
    re.IGNORECASE,
)
# a value the comparison sets another case at ("at 24 V it stores …"), unless the question's
_AT_VALUE = re.compile(r"\bat\s+([-+]?\d+(?:\.\d+)?)")
# an effect a comparison keeps ("with drag"), and one the question leaves out ("ignoring drag")
_KEPT = re.compile(r"\bwith\s+(?:the\s+|air\s+)?([a-z]+)", re.IGNORECASE)
_LEFT_OUT = re.compile(
    r"\b(?:ignor\w*|neglect\w*|without|no)\s+(?:the\s+|air\s+|any\s+)?([a-z]+)", re.IGNORECASE
)
# words before a box that claim it as the answer
_CLAIMED = re.compile(r"\b(?:final|answer|result|therefore|thus|hence)\b", re.IGNORECASE)


def _compared(befores: list[str], question: str | None) -> list[bool]:
    """For each box, whether the words before it in its sentence give it for comparison
    (``_COMPARISON_BEFORE``) of another case than the asked one: another box is claimed as
    the answer, the comparison is of another case (``_OTHER_CASE``), or it keeps an effect
    the question leaves out ("For comparison, with drag: …" for a question ignoring drag).
    Else the comparison is the asked case given after a baseline ("In air it is 500 nm. By
    contrast, inside the glass it is 333 nm."), and stands (red team r24c: disowning it
    judged the baseline)."""
    found = [_COMPARISON_BEFORE.search(_plain(b[-_WINDOW:])) for b in befores]
    if not any(found):
        return [False] * len(befores)
    claimed = [
        match is None and _CLAIMED.search(_plain(_window_before(b))) is not None
        for b, match in zip(befores, found, strict=True)
    ]
    left_out = {m.group(1).casefold().rstrip("s") for m in _LEFT_OUT.finditer(question or "")}
    flags = []
    for index, match in enumerate(found):
        if match is None:
            flags.append(False)
            continue
        if _claims_a_value(befores[index]):
            flags.append(True)  # "**Answer: v ≈ 31 m/s** … For reference, \boxed{…}"
            continue
        clause = match.group(0)
        kept = {m.group(1).casefold().rstrip("s") for m in _KEPT.finditer(clause)}
        other_claimed = any(c for j, c in enumerate(claimed) if j != index)
        elsewhere = any(
            not re.search(rf"(?<![\d.]){re.escape(at.group(1))}(?![\d])", question or "")
            for at in _AT_VALUE.finditer(clause)
        )  # "at 400 km altitude" where the question's orbit is at 400 km is the asked case
        flags.append(
            other_claimed
            or elsewhere
            or _OTHER_CASE.search(clause) is not None
            or bool(kept & left_out)
        )
    return flags


# a value the prose claims as the answer: "Answer: v ≈ 31 m/s", "Therefore … 4.4 m/s",
# "4.4 m/s is the final answer"
_CLAIMED_VALUE = re.compile(
    r"\b(?:final|answer|result|therefore|thus|hence)\b[^\n]{0,80}?[-+−]?\d"
    r"|\d[^\n.]{0,40}?\b(?:is|as)\s+(?:the|my|our)\s+(?:final\s+)?(?:answer|result)\b",
    re.IGNORECASE,
)


def _claims_a_value(before: str) -> bool:
    """Whether the prose since the previous box, before the comparison's words, claims a
    value as the answer (red team r25a: an answer given unboxed, then a baseline boxed "for
    reference", made the baseline the judged answer)."""
    prose = _plain(before[-400:].split("\\boxed")[-1])
    cuts = [m.start() for m in _COMPARISON_WORDS.finditer(prose)]
    return bool(cuts) and _CLAIMED_VALUE.search(prose[: cuts[-1]]) is not None


def _disowned(before: str, after: str) -> bool:
    """Whether a mark or a label around one box disowns it (see ``_DISOWNED_AFTER``)."""
    prose, _ = _split_label(before)
    return (
        _MARK_BEFORE.search(_window_before(prose)) is not None
        or _DISOWNED_AFTER.match(_plain(_same_paragraph(_decoded(after[:_WINDOW])))) is not None
        or _DISOWNED_AFTER.match(_decoded(after[:_WINDOW])) is not None
        or (_BRACED_BEFORE.search(before) is not None and _JUDGING_LABEL.match(after) is not None)
    )


_SAME_CLAUSE_WORDS = 8  # a longer gap between two boxes is more than a list


def uncommitted(text: str, spans: list[tuple[int, int]]) -> list[bool]:
    """For each box (its span in ``text``), whether the output leaves it open (see
    :func:`_open_box`): such a box, every box before it and the boxes its clause runs on to
    are no answer. A box joined to the next by a hedge ("\\boxed{a}? \\boxed{b}") is left to
    the hedge rule, which judges both."""
    if not spans:
        return []
    befores, afters = _around(text, spans)
    flags = [_open_box(b, a) for b, a in zip(befores, afters, strict=True)]
    for index in range(1, len(spans)):  # a label runs on: "Guessing: \\boxed{a}, \\boxed{b}"
        gap = _plain(befores[index])
        joined = not _SENTENCE_BREAK.search(gap) and len(gap.split()) <= _SAME_CLAUSE_WORDS
        flags[index] = flags[index] or (flags[index - 1] and joined)
    for index in range(len(spans) - 1):  # "\\boxed{a}? \\boxed{b}": a hedge, judged as one
        gap = text[spans[index][1] : spans[index + 1][0]]
        flags[index] = flags[index] and not hedged(gap, text[: spans[index][0]])
    if not any(flags):
        return flags
    last = max(index for index, flag in enumerate(flags) if flag)
    return [index <= last for index in range(len(spans))]


# ---------------------------------------------------------------------------------------------
# hedges between boxes
# ---------------------------------------------------------------------------------------------

# words that offer an alternative, between boxes or in the prose beside the last one
_OFFERING = (
    r"\b(?:or|either|maybe|perhaps|possibly|alternatively|probably|might|could|else"
    r"|otherwise(?!\s+(?:stated|put|said|written|expressed|phrased))|conceivably|alternately"
    r"|unless|likely|guess|unsure|not sure|ou|oder|oppure|o|quizás|quizá|tal\s+vez|vielleicht"
    r"|eller|lub|veya|vagy|atau|hoặc|ή|또는|または|還是|还是|أو"
    # more: English (perchance, arguably, aka), and "or"/"maybe" in other languages that no
    # English word spells (nebo, albo, yoki, või, arba, або; peut-être, forse, talvez,
    # misschien, może, možná, kanske, belki, talán, ehkä, mungkin, может быть, возможно)
    r"|perchance|arguably|presumably|aka|nebo|albo|yoki|või|arba|[аa]б[оo]|peut[-\s]être|forse"
    r"|talvez|quiçá|misschien|wellicht|może|możliwe|možná|kanske|måske|kanskje|belki|talán"
    # (Cyrillic words as the look-alike reading leaves them: "может" reads with a Latin o, e)
    r"|ehkä|mungkin|eventuell|м[оo]ж[еe]т(?:\s+быть)?|в[оo]зм[оo]жн[оo]|нав[еe]рн[оo][еe]"
    r"|м[оo]жлив[оo]|либ[оo]|有可能|也许|或许"
    r"|たぶん|多分|かもしれない|아마|혹은|ربما|شاید|یا|או|หรือ|có\s+lẽ)\b|(?<!\w)(?:या|शायद)(?!\w)"
    r"|\b(?:alt|resp)\.(?=\s)|\ba\.\s?k\.\s?a\.?(?!\w)"
    r"|или|或|或者|∨|\\lor(?![a-zA-Z])|\\vee(?![a-zA-Z])|\|\|"
)
# between two boxes also a comparison ("vs"), a bare slash ("\\boxed{a} / \\boxed{b}", not the
# one in "m/s"), parallel bars; a question mark only right after the earlier box (a question
# before the later box is a restated question: "(b) What is the time? \\boxed{…}")
_HEDGE_WORDS = re.compile(
    rf"{_OFFERING}|\b(?:vs|versus|then again)\b|(?<![\w)])[/∕⁄／](?![\w(])|\\slash(?![a-zA-Z])"
    r"|\\parallel(?![a-zA-Z])",
    re.IGNORECASE,
)
_HEDGE_AT_EDGE = re.compile(
    rf"^\W*(?:{_HEDGE_WORDS.pattern})|^\W{{0,3}}\?|(?:{_HEDGE_WORDS.pattern})\W*$", re.I
)
# boxes joined by nothing but an equality or an equivalence claim the same value: each must
# be right ("\\boxed{a} \\equiv \\boxed{b}", "\\boxed{a} ⇔ \\boxed{b}", "\\boxed{a} ~ \\boxed{b}")
_RELATION_ONLY = re.compile(
    r"^(?:=|:=|≈|≃|≡|≅|≐|∼|~|⇔|⟺|↔|⟷"
    r"|\\(?:approx|simeq|equiv|cong|doteq|triangleq|sim|iff|Leftrightarrow|leftrightarrow"
    r"|Longleftrightarrow|longleftrightarrow)(?![a-zA-Z]))$"
)
# A label between two boxes that offers the later one as another answer for the same value:
# another estimate, method, source, convention or system of units ("Upper estimate:",
# "Method 2 (energy):", "Per the textbook:", "Using the other sign convention:", "In SI:"),
# or the value for another part of the setup ("For the outer lane:"). Each box is then a
# claim about the asked value, as with "or"; a correction ("Corrected estimate:") revises.
_ANOTHER_ANSWER_LABEL = re.compile(
    r"\b(?:(?:lower|upper|rough|crude|alternative|other|another|second|2nd|max(?:imum)?"
    r"|min(?:imum)?|conservative|optimistic|pessimistic)\s+(?:estimate|bound|guess|value|answer"
    r"|result|approximation)"
    r"|(?:method|approach|way|route|derivation|solution)\s*(?:\d+|[ivx]+|[A-Z]|two|three|2nd"
    r"|\([^()]{1,30}\))"
    r"|(?:alternative|other|another|second|different)\s+(?:method|approach|way|route|derivation"
    r"|solution|formula|model)"
    r"|(?:per|according\s+to|from|by)\s+(?:the\s+|my\s+|a\s+)?(?:textbook|book|answer\s+key"
    r"|solutions?\s+manual|reference|key|source|instructor|simulation)"
    r"|(?:other|opposite|alternative|another|usual|standard)\s+(?:sign\s+)?convention"
    r"|in\s+(?:SI|cgs|gaussian|natural|imperial|US|other|different)(?:\s+units)?"
    r"|for\s+the\s+(?:other|outer|inner|opposite|second|upper|lower|far|near)\s+\w+"
    # a check or another method: "Cross-check:", "Via kinematics:", "From the work-energy
    # theorem:", "By dimensional analysis:"
    r"|(?:cross|double)[-\s]?check|(?<![\w-])check(?:ing)?\b|verif(?:y|ied|ication)|sanity"
    r"|^(?:via|by|using|from|with)\s+(?:the\s+|an?\s+)?[\w-]+"
    # another precision or form: "Rounded:", "Exact:", "To 2 s.f.:", "Numerically:"
    r"|exact(?:ly)?|rounded|unrounded|without\s+rounding|to\s+\d+\s+(?:s\.?\s?f|sig|significant"
    r"|decimal|d\.?\s?p)|numeric(?:al(?:ly)?)?|simplified|approx(?:imately|imate|\.)?"
    r"|more\s+precisely|precisely|in\s+full|symbolically"
    # another source: "Answer key:", "Reference value:", "Expected:"
    r"|answer\s+key|reference(?:\s+(?:value|answer))?|expected|literature|textbook\s+value)"
    r"[^:]{0,30}:$",
    re.IGNORECASE,
)
# Two boxes in one piece of math joined by a sign and no words ("\\boxed{a} ≜ \\boxed{b}",
# "\\boxed{a} \\mid \\boxed{b}", "\\boxed{a} \\overset{!}{=} \\boxed{b}") relate the two as
# values of one thing: both are claimed. A revision is written in words; boxes only spaced or
# listed ("\\quad", ",", a table's "&") and an arrow (a step from an intermediate to the
# answer: "\\boxed{E = 2.00 J} \\to \\boxed{h = 0.816 m}") keep the last-box rule. Words that
# say the same ("i.e.", "equivalently", "alias", "resp.") join them so too.
_JOINING_SPACE = re.compile(
    r"\\(?:[,;:! ]|q?quad|[hv]space\*?\s*\{[^{}]*\}|enspace|thinspace)|[\s~{}]"
)
_STEP_ARROW = re.compile(
    r"\\(?:to|rightarrow|Rightarrow|longrightarrow|Longrightarrow|implies|mapsto|leadsto)(?![A-Za-z])"
    r"|[→⇒⟶⟹↦]"
)
_LIST_MARKS = re.compile(r"^(?:[,;.:，、；。：&]|\\\\)*$")  # a list, a table's cells and rows
_SAME_VALUE_WORDS = re.compile(
    r"^\W*(?:i\.\s?e\.|that\s+is|equivalently|alias|a\.k\.a\.|aka|namely|resp\.|respectively"
    r"|or\s+equivalently|which\s+is|same\s+as|viz\.?|to\s+wit|(?:the\s+)?same|identically"
    r"|in\s+other\s+words|(?:also|again)\s+(?:written|stated|given)(?:\s+as)?|that\s+is\s+to\s+say"
    r"|id\s+est|in\s+short|which\s+equals|identical|restated|rewritten|put\s+another\s+way"
    r"|(?:written|stated|put)\s+(?:also|again|differently|otherwise))\W*$",
    re.IGNORECASE,
)


def _signs_only(gap: str) -> bool:
    """Whether ``gap`` joins two boxes in the same math by signs alone (see above)."""
    if re.search(r"\$|\\[\[\]()]|\n", gap):
        return False  # not in one piece of math
    if re.search(r"\\(?:text|mathrm|textrm|mbox|operatorname)\s*\{", gap):
        return False  # words in math, or a unit: "\\boxed{3}\\ \\mathrm{m} \\quad \\boxed{5}"
    signs = _JOINING_SPACE.sub("", gap)
    if _STEP_ARROW.search(signs):
        return False  # "\\boxed{E = 2.00 J} \\to \\boxed{h = 0.816 m}": a step to the answer
    return (
        bool(signs)
        and not _LIST_MARKS.match(signs)
        and not re.search(r"[A-Za-z0-9]", re.sub(r"\\[A-Za-z]+", "", signs))
    )


_SLASH_ONLY = re.compile(r"^[/∕⁄／]\s*[(\[]?$")  # "\\boxed{a}/(\\boxed{b})"
_QUESTIONED = re.compile(r"^\(\s*[^()]{0,20}\?\s*\)")
_HEDGE_GAP_WORDS = 8  # a hedge word in a longer stretch of prose is part of the reasoning
# Two boxes labelled as answers to two readings of the question ("Interpretation A: \\boxed{a}
# Interpretation B: \\boxed{b}", "If the first interpretation is meant: \\boxed{a}. If the
# second: \\boxed{b}", "\\boxed{a} (convention 1) and \\boxed{b} (convention 2)"): one answer
# per reading is a hedge. Labels that name no reading ("Case 1", "Case 2") are a question's
# cases, unless a label near them names one.
_CASE_LABEL_BEFORE = re.compile(
    r"\b(?:interpretation|convention|reading|case|scenario|option)\s*(?:[A-Za-z]|\d+|[ivx]+)?\s*"
    r"(?:\([^()]{0,60}\))?\s*[:.)\-–—]?\s*(?:(?:is\s+)?(?:meant|intended|used)\s*[:,]?)?\s*$"
    r"|\bif\s+the\s+(?:first|second|third|other|former|latter)\b[^.\n]{0,40}[:,]\s*$",
    re.I,
)
_CASE_LABEL_AFTER = re.compile(
    r"^\s*\(\s*(?:interpretation|convention|reading|case|scenario)\b[^()]{0,40}\)\s*", re.I
)
_READING = re.compile(
    r"\boption\s+\w{1,3}\s*:|\b(?:interpretations?|conventions?|readings?|meant|intended"
    r"|if\s+the\s+(?:first|second|other))\b",
    re.I,
)
_LIST_JOIN_ONLY = re.compile(r"^(?:and|or|,|;|&)?$", re.I)


def _readings(head: str, gap: str) -> bool:
    """Whether two boxes are labelled as answers to two readings (see ``_CASE_LABEL_BEFORE``):
    ``head`` the prose before the earlier box, ``gap`` the prose between them (plain)."""
    if _READING.search(head + " " + gap) is None:
        return False
    after_first = _CASE_LABEL_AFTER.match(gap)
    first = _CASE_LABEL_BEFORE.search(head) is not None or after_first is not None
    rest = gap[after_first.end() :] if after_first else gap
    second = _CASE_LABEL_BEFORE.search(gap) is not None or (
        after_first is not None and _LIST_JOIN_ONLY.match(rest.strip()) is not None
    )
    return first and second


# Two boxes each labelled as one case of the question ("Case 1: \\boxed{a} Case 2: \\boxed{b}",
# "If the surface is rough: \\boxed{a}. If it is smooth: \\boxed{b}", "\\boxed{a} (case 1) and
# \\boxed{b} (case 2)"). A question that asks for its cases (a tuple) is answered so; beside one
# asked value they are two values offered for it. The verifier, which knows the answer type,
# decides which (``Extraction.cased``).
_CASE_NAMES = (
    r"(?:case|scenario|situation|possibility|regime|configuration|option|alternative"
    r"|interpretation|convention|reading)"
)
_CASE_INDEX = r"(?:\d+|[ivx]+|[A-Za-z](?![A-Za-z])|\([^()]{1,6}\))"
_ORDINAL = r"(?:first|second|third|fourth|other|former|latter|last|1st|2nd|3rd|\d+th)"
_CASE_BEFORE = re.compile(
    rf"(?:\b{_CASE_NAMES}\s*{_CASE_INDEX}|\b(?:the\s+|in\s+the\s+)?{_ORDINAL}\s+{_CASE_NAMES})"
    r"\s*(?:\([^()]{0,60}\))?[^.\n:;]{0,60}[:.)\-–—,=]\s*$"
    r"|(?:(?:^|[.\n:;]\s*|\b(?:and|but|while|whereas)\s+)(?:if|provided|assuming)"
    r"|(?-i:\b(?:If|Provided|Assuming)))\b[^.\n:;?]{1,80}[:,=]\s*$",
    re.I,
)
_CASE_AFTER = re.compile(
    rf"^\s*\(\s*(?:{_CASE_NAMES}\s*{_CASE_INDEX}|{_ORDINAL}\s+{_CASE_NAMES}|if\b|assuming\b)"
    r"[^()]{0,60}\)",
    re.I,
)


# all the prose between two boxes one condition: "\\boxed{True} if the bead is at rest,
# \\boxed{False} in the rotating case", "\\boxed{a} assuming μ = 0; \\boxed{b}": the
# condition belongs to one box or the other, and either way each box answers one case. Not
# "when", which also names a moment ("\\boxed{a} when it reaches the bottom, \\boxed{b}").
_CONDITION_GAP = re.compile(
    r"^(?:if|assuming|provided|supposing|in\s+case)\b[^.\n;:?!]{1,80}[,;:]?$", re.I
)


def cases(gap: str, before: str = "") -> bool:
    """Whether two boxes are labelled as two cases (see ``_CASE_BEFORE``, ``_CONDITION_GAP``):
    ``gap`` the text between them, ``before`` the text before the earlier box."""
    plain = _plain(gap).strip()
    if _CONDITION_GAP.match(plain):
        return True
    head = _plain(before[-_WINDOW:])
    after_first = _CASE_AFTER.match(plain)
    first = _CASE_BEFORE.search(head) is not None or after_first is not None
    if not first:
        return False
    if _CASE_BEFORE.search(plain) is not None:
        return True
    # "\\boxed{a} (case 1) and \\boxed{b} (case 2)": the later label follows its box
    rest = plain[after_first.end() :].strip() if after_first else None
    return rest is not None and _LIST_JOIN_ONLY.match(rest) is not None


# two boxes as the ends of a range: a dash or an ellipsis between them, or "between … and",
# "ranges from … to"
_RANGE_GAP = re.compile(r"^(?:–|—|--|\\ldots|\\dots|…|\.\.\.)$")
_RANGE_JOIN = re.compile(r"^(?:and|to|&|up\s+to|through|thru)$", re.I)
_RANGE_OPEN = re.compile(
    r"\b(?:between|(?:ranges?|range\s+is|varies|lies|goes|somewhere|anywhere|is|spans?)\s+"
    r"(?:from|between|in)|spans?|roughly|approximately|about|around|anywhere|somewhere)\s*[:$]?\s*$",
    re.I,
)


# Words that offer an alternative between two boxes only: short words in other languages that
# English or another language also spells ("of" in Dutch, "tai" in Finnish, "hay" in Vietnamese,
# "sau" in Romanian, "after" in Vietnamese), and a zero
# for the "o" of "or". They hedge when they are all the prose between the boxes:
# "\\boxed{a} \\text{of} \\boxed{b}"; in a sentence ("of the two") they are English.
_GAP_ONLY_HEDGE = re.compile(
    r"^\W*(?:of|sau|tai|vai|hay|ili|ali|ose|apo|edo|neu|nó|eða|ya|yoksa|ya\s+da|atau|o|0r|0R"
    r"|か|或|او)\W*$",
    re.IGNORECASE,
)
# mirrored or rotated text between two boxes: no honest joining prose is drawn so
_MIRRORED_GAP = re.compile(
    r"\\(?:reflectbox|rotatebox|turnbox|scalebox\s*\{\s*-)|\bxscale\s*=\s*-|scaleX\(\s*-"
)


def hedged(gap: str, before: str = "") -> bool:
    """Whether the prose between two boxes offers them as alternatives: "or", "maybe", "/"
    within a few words, or a range ("\\boxed{a} – \\boxed{b}", "between \\boxed{a} and
    \\boxed{b}", with ``before`` the prose before the earlier box). Boxes side by side without
    one keep the protocol's last-box rule, and longer prose between them ("wait, let me
    recheck ...") makes the later box a revision."""
    plain = _plain(gap).strip()
    head = _plain(before[-_WINDOW:])
    if _RANGE_GAP.match(plain) or (_RANGE_JOIN.match(plain) and _RANGE_OPEN.search(head)):
        return True
    if _readings(head, plain):
        return True
    if _SLASH_ONLY.match(plain) or _QUESTIONED.match(
        plain
    ):  # "\\boxed{a} (right?) \\boxed{b}": a box put as a question
        return True
    if _RELATION_ONLY.match(plain):  # \boxed{a} = \boxed{b}: a claim that both are the value
        return True
    if _signs_only(gap) or _SAME_VALUE_WORDS.match(plain):
        return True  # "\boxed{a} \coloneqq \boxed{b}", "\boxed{a} \text{ i.e. } \boxed{b}"
    if (
        len(plain.split()) <= _HEDGE_GAP_WORDS
        and _ANOTHER_ANSWER_LABEL.search(plain)
        and not _CORRECTION_CUE.search(plain)
    ):
        return True  # "\\boxed{a} Upper estimate: \\boxed{b}", "\\boxed{a} In SI: \\boxed{b}"
    if _HEDGE_AT_EDGE.search(plain):  # "or, if you prefer the textbook's form, \boxed{…}"
        return True
    if _GAP_ONLY_HEDGE.match(plain) or _MIRRORED_GAP.search(gap):
        return True
    if len(plain.split()) <= _HEDGE_GAP_WORDS and _CONDITIONAL_DENIAL.search(plain):
        return True  # "\\boxed{a} \\quad \\text{if not,} \\quad \\boxed{b}"
    return len(plain.split()) <= _HEDGE_GAP_WORDS and _HEDGE_WORDS.search(plain) is not None


# An alternative offered in prose beside the final box: "\\boxed{a} or maybe 29 m/s", "$29$
# or \\boxed{a}", "\\boxed{True} or false". A value (a digit, math), a truth word or an
# option letter within a few words of the hedge word.
_OFFERED_VALUE = re.compile(
    r"\d|\$|\\\(|\b(?:true|false|yes|no)\b|(?-i:(?<![\w\\])[A-H](?![\w]))"
    r"|\([a-h]\)|(?<![\w\\])[a-h](?=[.!?])",  # a small option letter: "(b)", "maybe b."
    re.I,
)
_HEDGE_WORD_START = re.compile(
    rf"^(?:[\s.,;:!()\[—–$-]|\\[\])])*(?:(?:{INTERJECTIONS})\b[\s.,;:!—–-]*)?"
    rf"(?:(?:but|though|although|yet|and)\s+)?(?:{_OFFERING})",
    re.I,
)  # after the box's own math closes too: "$\\boxed{…}$ or maybe 29"; after "Hmm," too
_HEDGE_WORD_END = re.compile(
    rf"(?:{_OFFERING})(?:[\s,;:(~{{}}]|\\[,;:! ]|\\(?:quad|qquad|enspace|enskip|thinspace"
    r"|hspace\*?\s*\{[^{}]{0,20}\}|text|textrm|mathrm|mbox)(?![a-zA-Z])\s*\{?)*$",
    re.I,
)
_CLAUSE = re.compile(r"[;!\n]|\.(?!\d)")  # a decimal point ends no clause
# where an offered value ends: a sentence or clause mark (not a decimal point or a thousands
# comma), or a parenthesis that opens a remark
_VALUE_END = re.compile(r"(?<!\\)(?:[;!?\n(]|\.(?!\d)|,(?!\d{3}))")
_SIGN_BEFORE = re.compile(r"(?:[-+−]|\\pm|\\mp)\s*$")
# a unit-like word or group right after a box (the prompt asks for units outside the box);
# a hedge word is never one
_UNIT_AFTER_BOX = re.compile(
    # inside the math a line break may come before the unit, never a blank line; after the
    # math's close the unit is on the same line ("$$\\boxed{…}$$\n\nYou could …": no unit)
    r"^(?:[ \t]|\\[,;: !]|~)*(?:\n(?![ \t]*\n)(?:[ \t]|\\[,;: !]|~)*)?"
    r"(?:(?:\$\$?|\\[\])])(?:[ \t]|\$|\\[,;: !]|~)*)?"
    r"(?:\\(?:mathrm|text|textrm|mbox|rm)\s*\{[^{}]{1,24}\}"
    rf"|(?!(?:{_OFFERING}))[A-Za-zµμΩ°%][\w/^{{}}·.\-]{{0,12}})\$?"
)
_INLINE_MATH = re.compile(r"\$[^$]+\$|\\\(.*?\\\)")


def offered_in_prose(before: str, after: str) -> str | None:
    """The value the prose right around the final box offers beside it, or None: a hedge
    word right after the box followed within eight words by a value ("or maybe 29 m/s"
    offers ``29 m/s``), or a hedge word right before it preceded, in the same clause, by one
    ("$29$ or" offers ``29``). The value is not boxed, yet it is a claim about the same
    answer: the verifier judges it as it judges a hedged box, so "or roughly 52 km/h" beside
    a right 14.5 m/s stands and "or maybe 29 m/s" does not."""
    rest = _after_hedge_word(after, _WINDOW)
    if rest is not None:
        offered = " ".join(_plain(rest).split()[:_HEDGE_GAP_WORDS])
        if _OFFERED_VALUE.search(offered):
            return _first_value(rest)
    head = _TRAILING_SPACING.sub("", _decoded(before[-_WINDOW:]))
    plain = _plain_keep_math(head)
    end = _HEDGE_WORD_END.search(plain)
    if end is not None:
        clause = _CLAUSE.split(plain[: end.start()])[-1]
        last = " ".join(clause.split()[-_HEDGE_GAP_WORDS:])
        if last and _OFFERED_VALUE.search(last) is not None:
            return _last_value(head, last)
    return None


# spacing between a hedge word and the box after it: "$29$ or\\hspace{0.5em}\\boxed{…}", "B~or~"
_TRAILING_SPACING = re.compile(
    r"(?:\s|~|\\[,;:! ]|\\(?:quad|qquad|enspace|enskip|thinspace|hspace\*?\s*\{[^{}]{0,20}\})"
    r"(?![a-zA-Z]))+$"
)


def _after_hedge_word(after: str, chars: int) -> str | None:
    """The prose after a hedge word that opens the text after the box (within its first
    ``chars`` characters), or None: past the box's own math and the unit written after it
    ("\\boxed{14.5} m/s, or maybe 29")."""
    raw = _decoded(after[:chars])
    tail = _undecorated(raw)
    start = _HEDGE_WORD_START.match(tail)
    if start is None:  # the unit is read before the decoration goes: ". You could" has none
        tail = _undecorated(_UNIT_AFTER_BOX.sub("", raw, count=1))
        start = _HEDGE_WORD_START.match(tail)
    return None if start is None else tail[start.end() :]


# What may stand between a box and the hedge word after it without hiding the word: spacing
# commands, the opening of a text, font, footnote or tag group ("\\;\\text{or}\\;29",
# "\\footnote{Or B.}"), HTML tags, Markdown emphasis and code marks, a footnote marker,
# arrows and ellipses
_DECORATION = re.compile(
    r"(?:\\(?:hspace\*?\s*\{[^{}]{0,20}\}|kern\s*-?[\d.]+\s*[a-z]{2})"
    r"|\\(?:quad|qquad|enspace|enskip|thinspace|medspace|thickspace|hfill|space|nobreakspace"
    r"|text|textrm|textsf|textnormal"
    r"|mathrm|mathsf|mbox|textbf|textit|emph|textup|rm|it|bf|footnote|footnotetext|tag|marginpar"
    r"|textsuperscript|textsubscript|mathbf|mathit|operatorname|Rightarrow|rightarrow|to|implies"
    r"|rlap|llap|mathrlap|mathllap|clap|mathclap|smash|hbox|mbox|makebox|fbox|framebox|underline"
    r"|overline|textsc|textsl|texttt|mathtt|boldsymbol|pmb|small|footnotesize|scriptsize|tiny"
    r"|large|Large|normalsize|displaystyle|textstyle|scriptstyle"
    r"|ldots|dots|cdots|longrightarrow)(?![a-zA-Z])\s*\{?"
    r"|\\(?:class|htmlClass|cssId|htmlId|htmlStyle|htmlData)\s*\{[^{}]{0,40}\}\s*\{"
    r"|\\(?:textcolor|color|mathcolor|colorbox)\s*(?:\[[^\]]{0,10}\])?\s*\{[^{}]{0,40}\}\s*\{?"
    r"|\[\^\w{1,10}\]:?"
    r"|\\[,;:! ]|</?[A-Za-z][A-Za-z0-9-]{0,20}(?:\s[^<>]{0,200})?>|&nbsp;"
    r"|(?:(?!\[\^)[\s{}_*`~^→⇒…()\[\].,;:!—–-])+)+"
)


def _undecorated(tail: str) -> str:
    """``tail`` without the decoration it opens with (see ``_DECORATION``)."""
    tail = _EMPHASIS.sub(r" \1 ", tail[:_DECORATED]) + tail[_DECORATED:]
    return _DECORATION.sub("", tail, count=1) if _DECORATION.match(tail) else tail


_EMPHASIS = re.compile(r"(?<![\\\w])_([A-Za-z]+)_(?!\w)")  # Markdown "_or_"
_DECORATED = 40  # characters at the start of the tail where emphasis is read as plain


# every value a stretch of offering prose holds: inline math, a number with its unit words,
# a truth word, an option letter (a capital, or a small one in parentheses)
_OFFER_ITEM = re.compile(
    r"\$(?P<math>[^$]+)\$|\\\((?P<paren>.*?)\\\)"
    r"|(?P<number>[-+−]?\s*\d(?:[\d.,]*\d)?(?:/\d+(?!\d|\.\d))?"
    r"(?:\s*(?:\\times|×|\\cdot|[xX*](?=\s*10\b))\s*10\s*(?:\^\s*\{?\s*[-+−]?\d+\s*\}?"
    r"|[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+))?"
    r"(?:(?:\s|\\[,;: ]|~)*(?:\\(?:mathrm|text)\s*\{[^{}]{1,20}\}|\^\s*\{?\s*\\circ\s*\}?"
    rf"|(?!(?:{_OFFERING}|even|and|but|if|the|for|to|of|in|is|instead|too|also|as|well|then"
    r"|which|that|though|here|there|with|when|where|while|along|above|below|left|right|from"
    r"|into|onto|over|under|after|before|behind|toward|towards|away|up|down|upwards?|downwards?"
    r"|(?:north|south|east|west)(?:wards?|bound)?|being|since|because|so|due|at|on|by|per)\b)[A-Za-zµμΩ°%Å][\w/^{}\-]*)){0,2}"
    r"(?:\s+per\s+[A-Za-z]{1,10}(?:\s+(?:squared|cubed))?){0,2})"
    r"|\b(?P<truth>true|false|yes|no)\b(?!\s+that\b)|(?-i:(?<![\w\\])(?P<letter>[A-H])(?![\w]))"
    r"|\((?P<small>[a-h])\)|(?<![\w\\])(?P<last>[a-h])(?=[.!?])",
    re.IGNORECASE,
)
# a sentence ends at a full stop before a capital or the text's end ("i.e. 29" goes on)
_SENTENCE_END = re.compile(r"\.(?=\s+[A-Z]|\s*$)|\n\s*\n|!")
MAX_OFFERS = 4  # values offered beside the box that are judged one by one


def offers_in_prose(before: str, after: str) -> tuple[str, ...]:
    """Every value the prose around the final box offers beside it: in the sentence after
    the box, what each hedge word or restatement offers (:func:`_offered_after`: "or maybe
    15 m/s, or even 29 m/s" offers both), and the value right before a hedge word before the
    box ("either $29$ or \\boxed{…}, or roughly 15" offers 15 and 29); a value listed in a
    remark ("(as well as 5.0 s)") or set apart in the box's math ("\\boxed{B}\\,/D"). Empty
    when nothing is offered; a hedge with no value the scan can read offers ``""`` (judged
    wrong), and so does what makes the box no committed value: a qualifier ("(±20%)", "up to
    sign", "+ \\ldots"), a relative remark ("(double if …)"), another row of a cases
    environment, a value named for another reading. Each must be right on its own (see
    ``verifier._offered_problem``)."""
    region = _after_hedge_word(after, 3 * _WINDOW)  # whole math, whole sentence
    relative = [""] if region is not None and _relative(region) else []
    in_math = _box_in_math(before)
    if in_math and region is not None and _hedge_in_box_math(after):
        # the hedge word in the box's math: "$$\\boxed{a} \\quad\\text{or}\\quad b$$" offers b
        value = _math_offer(region)
        region = region if value is None else f"${value}$"
    questioned = [""] if _undecorated(_decoded(after[:_WINDOW])).startswith("?") else []
    unsure = _qualified(after) or _relative_remark(after) or _in_cases_with_other_row(before, after)
    values = (
        *_hedge_word_offers(before, after, region),
        *relative,
        *questioned,  # "\\boxed{\\text{False}}\\,\\text{?}": a box put as a question
        *([""] if unsure else []),  # "(±20%)", "(double if …)", a cases row: no committed value
        *_paired_value(after),
        *_separated_option(after),
        *_restated(after, in_math),
        *_later_offers(after, in_math),
    )
    if not values and _other_reading(after):
        values = ("",)  # a value named for another reading, which the scans do not read
    values = (*values, *_other_rows(before, after))
    return tuple(dict.fromkeys(values))  # the hedge word after the box is read by both scans


# A box in one row of a table of cases or methods ("| case | answer |", "| approach | result
# |") or in a list item labelled by a condition ("1. If the surface is frictionless:"), with
# rows or items after it that give a value unboxed ("| with losses | $0.308$ |", "2.
# Otherwise: $C$"): second values for the asked one, each judged as a value offered in prose
# is. A table of quantities ("| quantity | value |") and steps ("1. Set up: …") list other
# things; boxed rows are boxes, judged as such.
_CASE_TABLE_HEADER = re.compile(
    r"^\s*\|\s*(?:cases?|approach(?:es)?|methods?|models?|assumptions?|scenarios?|conditions?"
    r"|setups?|readings?|interpretations?|regimes?|variants?|versions?|options?)\s*\|",
    re.IGNORECASE,
)
_ITEM = r"^\s*(?:\d+[.)]|[-*•])\s+"
_CONDITION_LABEL = (
    r"(?:if|when|with|without|for|assuming|case|method|approach|otherwise|else|alternatively"
    r"|under|in\s+the\s+(?:other|second|first)\s+case)\b[^:\n]{0,80}:\s*"
)
_CONDITION_ITEM = re.compile(_ITEM + _CONDITION_LABEL, re.IGNORECASE)
_TABLE_RULE = re.compile(r"^[\s|:\-]*$")


def _other_rows(before: str, after: str) -> list[str]:
    """The unboxed values in the rows or items after the box's own in a table of cases or a
    list of conditions (see ``_CASE_TABLE_HEADER``, ``_CONDITION_ITEM``)."""
    *above, own = before.split("\n")
    below = after.split("\n")[1:]
    if own.lstrip().startswith("|"):
        block = list(takewhile(lambda line: line.lstrip().startswith("|"), above[::-1]))
        header = block[-1] if block else own
        if not _CASE_TABLE_HEADER.match(header):
            return []
        rows = takewhile(lambda line: line.lstrip().startswith("|"), below)
        cells = [row.strip().strip("|").split("|")[-1].strip() for row in rows]
        values = [cell for cell in cells if cell and not _TABLE_RULE.match(cell)]
    elif _CONDITION_ITEM.match(own):
        lines = below[:MAX_OFFERS]
        items = [_CONDITION_ITEM.match(line) for line in lines]
        values = [
            line[item.end() :].strip() for line, item in zip(lines, items, strict=True) if item
        ]
    else:
        return []
    unboxed = [value for value in values if not _BOX_OPEN.search(value)]
    return [_INLINE_MATH.sub(lambda m: _math_content(m.group()), v).strip(" .") for v in unboxed]


# A qualifier right after the box (and its unit) makes it no committed value: a spread
# ("(±20%)", "\\pm 5\\,\\mathrm{m/s}", "(within 30%)", "give or take"), a value up to
# something ("up to a factor of 2", "up to sign", "up to a constant factor"), an order of
# magnitude ("(order-of-magnitude estimate)"), a truncated series ("+ \\ldots", "+ O(t^2)"),
# or a validity it restricts ("(valid only for small t)", "for $x \\gg L$ only", "(leading
# order only)"). It offers a value the verifier cannot read (``""``): the box is rejected.
_QUALIFIER = re.compile(
    r"^(?P<lead>[\s.,;:(\[¶]*)(?:"
    r"(?P<spread>(?:\\pm|±|\+/-|\+-|\\mp|∓)\s*\(?\s*\d"
    r"|[-+−]\s*(?:\\[lc]?dots|\\ldotp|…|\.\.\.|\\mathcal\s*O\s*\(?|O\s*\(|o\s*\())"
    r"|(?:to\s+)?within\s+(?:about\s+|roughly\s+|some\s+)?(?:a\s+|an\s+|one\s+|two\s+|\d+(?:\.\d+)?"
    r"\s*)?(?:factor|orders?\s+of\s+magnitude|%|\\%|percent|per\s+cent)"
    r"|up\s+to\s+(?:an?\s+|the\s+|its\s+|one\s+|some\s+|overall\s+)?(?:(?:overall|constant|numerical"
    r"|multiplicative|numeric|dimensionless|order[-\s]one|O\(1\))\s+)*(?:factors?|signs?|constants?"
    r"|normali[sz]ation|prefactors?|phases?|orders?\s+of\s+magnitude)\b"
    r"|give\s+or\s+take|more\s+or\s+less\b"
    r"|(?:an?\s+|to\s+)?orders?[-\s]+of[-\s]+magnitude"
    r"|(?:valid|holds?|true|correct|accurate|exact|good|applies|applicable)\s+only\b"
    r"|only\s+(?:valid|approximately|roughly|in\s+the\s+limit)\b"
    r"|(?:leading|first|lowest|zeroth|linear)[-\s]+order\s+only\b"
    r"|(?P<condition>(?:for|when|if|where)\s+[^.;()\n]{1,40}?\s+only\b)"
    r")",
    re.IGNORECASE,
)


# What makes a qualifier that opens the next sentence a remark of its own, not one on the box:
# a check it labels ("Order of magnitude: fine.", "Order-of-magnitude check: …", "An
# order-of-magnitude estimate agrees"), a clause with its own subject ("Within 1% this agrees
# with …", "Give or take rounding, the two parts nearly cancel"), the digits the box writes
# ("Accurate only to three significant figures"), or a condition the problem sets ("Valid
# only for small oscillations, as the problem assumes"). A sentence that is the qualifier
# alone ("Give or take a factor of ten.", "Within 50%.", "Valid only for a dry road.")
# qualifies the box before it.
_REMARK_AFTER_QUALIFIER = re.compile(
    r"(?:\s+(?!(?:if|for|when|unless|where|provided|in|at|on)\b)[\w%.\\]+){0,4}?(?:\s*:"
    r"|\s*,?\s+(?:this|that|it|which|the(?:\s+[\w-]+){1,2})\s+(?:agrees?|match(?:es)?|is|equals"
    r"|checks?|holds?|nearly|comes|gives|confirms?|fits?|cancel|lies|sits|works)\b"
    r"|\s+(?:check|estimate|sanity)\b"
    r"|\s+(?:significant\s+figures|s\.\s?f\.|sig\.?\s+figs?|decimal\s+places|digits)\b"
    r"|[^.;]{0,60},\s*as\s+(?:the\s+(?:problem|question)\s+(?:assumes|states|says|specifies)"
    r"|assumed|stated|given|required)\b)",
    re.IGNORECASE,
)


def _qualified(after: str) -> bool:
    """Whether a qualifier (``_QUALIFIER``) follows the box, with or without its unit and the
    close of its math between them."""
    head = _decoded(after[: 2 * _WINDOW])
    texts = (head, _UNIT_AFTER_BOX.sub("", head, count=1))
    for text in texts:
        plain = _plain(_PARAGRAPH_BREAK.sub(" ¶ ", text))
        match = _QUALIFIER.match(plain)
        if match is None:
            continue
        if (
            match.group("spread") is None
            and re.search(r"[.¶]", match.group("lead"))
            and _REMARK_AFTER_QUALIFIER.match(plain, match.end())
        ):
            continue  # "\boxed{…}.\n\nOrder of magnitude: fine.": a remark, not the box's
        # a restricting condition belongs to the box's own sentence ("for $t \le 0$ only");
        # "If the planet did not rotate and only …" in the next one is a what-if
        if match.group("condition") is None or not re.search(
            r"[.!?\n¶]", plain[: match.start("condition")]
        ):
            return True
    return False


# A remark right after the box that offers a value relative to it under another condition:
# "(double if the road is icy)", "(twice this in the other frame)", "(\\times 2 with the
# other convention)", "(\\div 2 if measured differently)": a second value for the asked one.
_RELATIVE_REMARK = re.compile(
    r"^[\s.,;:]*[(\[]\s*(?:(?:twice|double|doubled|triple|tripled|thrice|half|halved|quadruple"
    r"|(?:\d+(?:\.\d+)?|two|three|four|ten)\s*(?:times|x|×)|minus|negative|the\s+negative"
    r"|the\s+opposite|the\s+reciprocal|opposite\s+sign)"
    r"|(?:\\times|×|\\div|÷|\\cdot|/|x)\s*\d+(?:\.\d+)?)"
    r"(?:\s+(?:this|that|it|the\s+value|of\s+(?:this|that|it)))?\s*,?\s+"
    r"(?:if|with|in|under|for|when|using|assuming|on|otherwise|else|per)\b",
    re.IGNORECASE,
)


def _relative_remark(after: str) -> bool:
    """Whether a remark right after the box offers a value relative to it (see
    ``_RELATIVE_REMARK``)."""
    return _RELATIVE_REMARK.match(_plain(_decoded(after[: 2 * _WINDOW]))) is not None


# A second value named for another reading of the question, in the sentences right after the
# box: "[29 m/s under the other convention]", "; for a different reading, 29 m/s", "(reading A)
# / 29 m/s (reading B)", "Footnote: 29 m/s if the other convention is intended", a table row
# "| other | 29 m/s |". The value answers another question than the one asked, so it is a
# hedge; the reading is the cue, what value it names need not be read.
_OTHER_READING = re.compile(
    r"\b(?:(?:under|for|with|in|using|if|assuming|per|by)\s+(?:the\s+|a\s+|an\s+)?"
    r"(?:other|different|alternative|second|another|opposite|loose|looser|strict|stricter"
    r"|broader|narrower)\s+(?:reading|convention|interpretation|setup|definition|assumption"
    r"|sign\s+convention|understanding|meaning)"
    r"|(?:reading|convention|interpretation|understanding)\s+(?:[B-Z2-9]|ii|two)\b"
    r"|if\s+(?:the\s+)?(?:question|problem|author|grader|task|exercise)\s+(?:really\s+)?"
    r"(?:means|meant|intends|intended|wants|wanted|asks|asked)"
    r"|if\s+(?:the\s+)?(?:other|second|alternative)\s+\w+\s+is\s+(?:intended|meant|used|wanted))"
    r"|\|\s*(?:other|alternative|second)\s*(?:reading|convention|interpretation)?\s*\|",
    re.IGNORECASE,
)
_OTHER_READING_SENTENCES = 2  # the box's sentence and the next one


def _other_reading(after: str) -> bool:
    """Whether the sentences right after the box name a value for another reading of the
    question (see ``_OTHER_READING``): some value must stand in them."""
    scope = _next_sentences(after, _OTHER_READING_SENTENCES)
    found = _OTHER_READING.search(scope)
    return found is not None and _OFFER_ITEM.search(scope) is not None


# A box in one row of a cases-like environment whose other row holds an unboxed value
# (``\\begin{cases}\\boxed{a} & \\text{reading 1} \\\\ b & \\text{reading 2}\\end{cases}``):
# one value per reading, a hedge, as two boxes labelled as two cases are.
_CASES_BEGIN = re.compile(
    r"\\begin\s*\{\s*(?:d|r)?cases\*?\s*\}|\\left\s*\\\{\s*\\begin\s*\{\s*array"
)
_CASES_END = re.compile(r"\\end\s*\{\s*(?:(?:d|r)?cases\*?|array)\s*\}")


def _in_cases_with_other_row(before: str, after: str) -> bool:
    """Whether the box stands in a cases environment (see ``_CASES_BEGIN``) with another row
    beside its own, unboxed (boxes in two rows are two boxes, judged as such)."""
    begins = list(_CASES_BEGIN.finditer(before))
    if not begins or _CASES_END.search(before, begins[-1].end()):
        return False
    end = _CASES_END.search(after)
    if end is None:
        return False
    inside = before[begins[-1].end() :] + after[: end.start()]
    return "\\\\" in inside and not _BOX_OPEN.search(inside)  # boxed rows are cases()'s


# A value listed in a remark right after the box: "(as well as 5.0 s)", "(\\text{also } 5 s)",
# "\\text{ (and later } t = 5.0 s\\text{)}": a further value for the asked one, judged.
_PAIRED = re.compile(
    r"^[\s.,;:]*\(\s*(?:and(?:\s+(?:later|also|again|then|another|even|possibly))?|also"
    r"|as\s+well\s+as|plus|together\s+with|along\s+with|besides)\s+"
    r"(?:(?:at|when|for)\s+)?(?:[A-Za-z](?:_\s*\w+)?\s*=\s*)?",
    re.IGNORECASE,
)


def _paired_value(after: str) -> list[str]:
    """The value a remark right after the box lists beside it (see ``_PAIRED``)."""
    text = _plain_keep_math(_decoded(after[: 2 * _WINDOW]))
    paired = _PAIRED.match(text)
    if paired is None:
        return []
    item = _OFFER_ITEM.match(text, paired.end())
    return [] if item is None else [_item_value(text, item)]


# An option set apart right after the box in its math: "\\boxed{B}\\,\\mathrm{/}D",
# "\\boxed{B}\\!/\\!\\mathrm{D}", "\\boxed{B}\\text{ ⊕ }D", "\\boxed{B}\\quad\\boxed{}\\quad D",
# "\\boxed{B}\\ \\ D", "\\boxed{\\text{False}}\\ \\ \\text{True}": a second candidate. A separator
# must stand between them ("\\boxed{5}\\,
# \\mathrm{A}" is a unit, five amperes), and the letter must end the math or the line.
_SPACING = (
    r"(?:\s|\\[,;:! >]|~|\\q?quad(?![a-zA-Z])|\\(?:enspace|enskip|hfill|hspace\s*\{[^{}]*\}))"
)
_OPTION_SEPARATOR = (
    r"(?:[/∕⁄|⊕⊗·•]|\\(?:oplus|otimes|mid|vert|slash|bullet|diamond|star|dagger)(?![a-zA-Z])"
    r"|\\(?:mathrm|text|textrm|mbox)\s*\{\s*(?:[/|⊕⊗·•]|\\slash)\s*\}|\\boxed\s*\{\s*\}"
    r"|(?:\\q?quad(?![a-zA-Z])|\\[ ]){2,}|\\q?quad(?![a-zA-Z]))"
)
_SEPARATED_OPTION = re.compile(
    rf"^{_SPACING}*{_OPTION_SEPARATOR}(?:{_SPACING}|{_OPTION_SEPARATOR})*"
    r"(?:\\(?:mathrm|text|textrm|textbf|mathbf|mbox)\s*\{\s*)?\(?(?P<letter>[A-H]|True|False|Yes|No)\)?"
    r"\s*\}?"
    r"\s*(?:\$|\\\]|\\\)|\n|$)"
)


# Words set apart the same way: "\\boxed{\\text{runs slow}}\\,\\mathrm{/}\\text{fast}",
# "\\text{ or }\\text{fast}", "\\ \\text{(or }\\text{fast}\\text{)}". Only a mark that is no spacing
# sets words apart: "\\boxed{3.0}\\quad\\text{seconds}" is a unit.
_HARD_SEPARATOR = (
    r"(?:[/∕⁄|⊕⊗·•]|\\(?:oplus|otimes|mid|vert|slash|bullet|diamond|star|dagger)(?![a-zA-Z])"
    r"|\\(?:mathrm|text|textrm|mbox)\s*\{\s*(?:[/|⊕⊗·•]|\\slash|\(?\s*or)\s*\}|\\boxed\s*\{\s*\})"
)
_SEPARATED_WORDS = re.compile(
    rf"^{_SPACING}*{_HARD_SEPARATOR}(?:{_SPACING}|{_HARD_SEPARATOR})*"
    r"\\(?:mathrm|text|textrm|textbf|mbox)\s*\{(?P<words>[A-Za-z][A-Za-z \-]{0,39})\}"
    r"(?:\s*\\(?:text|mathrm)\s*\{\s*\)\s*\})?\s*(?:\$|\\\]|\\\)|\n|$)"
)


def _separated_option(after: str) -> list[str]:
    """The option letter or words set apart right after the box (see ``_SEPARATED_OPTION``,
    ``_SEPARATED_WORDS``)."""
    head = _decoded(after[:_WINDOW])
    found = _SEPARATED_OPTION.match(head)
    if found is not None:
        return [found.group("letter")]
    words = _SEPARATED_WORDS.match(head)
    return [] if words is None else [words.group("words").strip()]


def _hedge_in_box_math(after: str) -> bool:
    """Whether the first hedge word after the box comes before its math closes. Read only
    when a hedge word opens the prose after the box, so that word lies within the window
    the offer is read from: the whole output after the box is never scanned for it."""
    hedge = _HEDGE_WORDS.search(after, 0, 3 * _WINDOW)
    close = _MATH_CLOSE.search(after)
    return hedge is not None and close is not None and hedge.start() < close.start()


def _hedge_word_offers(before: str, after: str, region: str | None) -> tuple[str, ...]:
    """The values a hedge word right beside the box offers (``region``: the prose after the
    one that opens the text after the box)."""
    first = offered_in_prose(before, after)
    if first is None:
        return ()
    values: list[str] = []
    if region is not None:
        end = _SENTENCE_END.search(region)
        values += _offered_after(region[: end.start() if end else None])
    head = _TRAILING_SPACING.sub("", _decoded(before[-_WINDOW:]))
    if _HEDGE_WORD_END.search(_plain_keep_math(head)) is not None:
        clause = _items(_HEDGE_WORD_END.sub("", _CLAUSE.split(head)[-1]))
        values += clause[-1:]  # the value right before the hedge word ("$29$ or \\boxed{…}")
    return tuple(values) if values else (first,)


# A value offered relative to the box's ("or possibly twice that", "or maybe half of it",
# "or its negative"): another value for the same quantity, which only a zero box equals. The
# phrase must fill its clause: "or about twice the speed of a jogger" compares, it offers
# nothing.
_BACK_REFERENCE = (  # "that", "of it", "this value", "of the result"
    r"(?:\s+of)?\s+(?:(?:(?:this|that|the|my|our)\s+)?(?:value|answer|result|number|above)"
    r"|that|this|it)"
)
_RELATIVE_OFFER = re.compile(
    r"(?:(?:even|just|about|roughly|around|approximately|possibly|perhaps|maybe|probably"
    r"|likely|rather|instead|also|else|so|with|by)\s+)*"
    r"(?:(?:twice|double|doubled|triple|tripled|treble|thrice|quadruple|half|halved"
    r"|(?:a|one)[\s-]+(?:half|third|quarter|fourth|fifth|tenth)"
    r"|(?:\d+(?:\.\d+)?|two|three|four|five|six|eight|ten|a\s+hundred|a\s+thousand|several)"
    r"\s*(?:times|x|×)"
    r"|(?:an?\s+)?(?:factor\s+of\s+\S+|order\s+of\s+magnitude)"
    r"(?:\s+(?:more|less|larger|smaller|bigger|higher|lower|greater))?)"
    rf"(?:{_BACK_REFERENCE}|\s+as\s+\w+"
    r"|\s+(?:more|less|larger|smaller|bigger|higher|lower|greater))?"
    r"|(?:the\s+|its\s+|a\s+)?(?:negative|opposite|reciprocal|inverse|square(?:\s+root)?"
    r"|cube(?:\s+root)?)"
    rf"(?:\s+sign|{_BACK_REFERENCE})?"
    r"|minus\s+(?:that|this|it))",
    re.I,
)


def _relative(region: str) -> bool:
    """Whether the clause that opens ``region`` (the prose after a hedge word or "could also
    be") offers a value relative to the box's ("twice that", "its negative")."""
    end = _VALUE_END.search(region)
    clause = " ".join(_plain(region[: end.start() if end else None]).split())
    return _RELATIVE_OFFER.fullmatch(clause.strip(" .,;:()")) is not None


# Values offered later in the prose after the box, up to a few sentences on: "It might also
# be 0.31." "Another possible answer is 30 cm." "Some textbooks would give 10.2 m/s instead."
# "I'm not sure; 31.6 N/m is also plausible." Each offers a second value for the asked one,
# as "or maybe 0.31" right after the box does. The subject must be the answer ("it", "this",
# "the result"), or a quantity that "could also"/"might instead" be something: "the energy
# is 105 J" offers nothing. A counterfactual makes it a what-if ("If g were 9.81 m/s², it
# would be 14.6 m/s"), unless it is the writer's doubt ("if I had to guess"); an indicative
# condition is a hedge on the question ("It could be 0.180 N if the separation is 1 m").
_FILLER = (
    r"(?:(?:about|around|approximately|roughly|close\s+to|near|nearly|almost|exactly|just"
    r"|as\s+(?:much|high|low|large|small|little|big|great|fast|slow|long|short)\s+as"
    r"|equal\s+to|(?:the\s+same\s+as|equivalent\s+to|identical\s+to)|(?:written|expressed|given|stated|quoted|reported|rounded|read|taken"
    r"|interpreted|put|simplified)\s+(?:as|to)|something\s+like|closer\s+to|nearer\s+to"
    r"|more\s+like|up\s+to|somewhere\s+(?:near|around)|(?:[A-Za-z]|\\[A-Za-z]+)(?:_\{?\w+\}?)?\s*="
    r"|,?\s*(?:I|we)\s+(?:suspect|think|guess|believe|feel)\s*,)\s*)*"
)
_MODAL_ADVERBS = (
    r"(?:\s+(?:also|instead|alternatively|equally|possibly|well|just\s+as\s+well|even|perhaps"
    r"|maybe|rather|actually|really))*"
)
_LATER_OFFER = re.compile(
    r"(?:\b(?:it|this|that|which|(?:the|my|our)\s+(?:final\s+)?(?:answer|result|value))"
    rf"\s+(?:might|could|may|can){_MODAL_ADVERBS}\s+(?:be|equal|come\s+out\s+(?:to|as))"
    r"|\b(?:the|my|our)\s+(?:final\s+)?(?:answer|result|value)\s+would(?:\s+instead)?\s+be"
    r"|\bthe\s+(?:[a-z]+\s+){1,2}(?:might|could|may)(?:\s+(?:also|instead|equally|alternatively"
    r"|well|possibly|perhaps|even))+\s+be"
    r"|\b(?:one|you|we|I|a\s+reader|a\s+grader)(?:\s+(?:could|might|may|would|can)|['’]d)(?:\s+(?:also"
    r"|instead|equally|well))*\s+(?:get|obtain|find|accept|say|argue\s+for|give|arrive\s+at)"
    r"|\b(?:can't|cannot|can\s+not|couldn't|won't)\s+rule\s+out"
    r"|\b(?:second|alternative|other|backup|fallback)\s+(?:guess|answer|option|candidate|value)"
    r"\s*[:=]"
    r"|\b(?:a\s+)?different\s+(?:answer|value|result)\s*[,:]"
    r"|\b(?:another|a\s+second|an\s+alternative|the\s+other)\s+(?:possible\s+|plausible\s+"
    r"|candidate\s+|acceptable\s+)?(?:possibility|option|candidate|answer|value|reading)"
    r"(?:\s+(?:is|would\s+be|could\s+be|might\s+be)|\s*:)"
    r"|\b(?:some|other|many|most|several|a\s+few|older|certain)\s+(?:\w+\s+)?(?:textbooks?|books?"
    r"|sources?|references?|people|students|graders?|authors?|solutions?|answer\s+keys?)"
    r"(?:\s+(?:would|might|could|may|will|do|often|usually|also|instead))*"
    r"\s+(?:give|quote|list|report|accept|get|say|have|use)"
    r"|\beither\s+(?:this|that|it)(?:\s+one)?\s+or"
    # an answer stated again after the box: "Final answer: 29 m/s", "So the answer is 29"
    r"|\b(?:(?:the|my|our)\s+)?(?:final|correct|true|actual)\s+(?:answer|result|value)"
    r"(?:\s*\*\*)?\s*(?:is|would\s+be|=|:)(?:\s*\*\*)?"
    r"|\bthe\s+answer\s+(?:is|=|:)"
    # a label that states the answer again, or takes the box back: "TL;DR: 29 m/s", "Bottom
    # line: …", "Correction: v = 29 m/s", "Actually, it's 29 m/s", "Wait, it should be 29"
    rf"|(?<![\w-])(?:{CONCLUSION_LABELS}|(?<!the\s)answer|summary"
    r"|corrected\s+(?:answer|value|result))(?:\s*\*\*)?\s*[:,](?:\s*\*\*)?"
    r"|\b(?:actually|wait|oops|on\s+second\s+(?:look|thought)|hmm)\b[\s,:;.!]*"
    r"(?:(?:it(?:'s|’s|\s+is|\s+should\s+be|\s+must\s+be)|(?:the\s+)?(?:answer|value|result)"
    r"\s+(?:is|should\s+be))\b)?"
    rf"|(?<=[.!?\n])\W*(?:(?:{INTERJECTIONS})\b\W*)?"  # "Hmm, or maybe …"
    r"(?:or|maybe|perhaps|possibly|alternatively|otherwise|then\s+again"
    r"|otherwise\s+(?:stated|put|said|written|expressed))(?:\s*,)?"
    r"(?:\s+(?:maybe|perhaps|possibly|even|it\s+is|it's|it\s+(?:could|might|may)\s+be"
    r"|the\s+(?:final\s+)?(?:answer|result|value)\s+(?:is|would\s+be|could\s+be|might\s+be)))*)"
    rf"\s*,?\s*{_FILLER}",
    re.I,
)
# a value the sentence calls another answer: "31.6 N/m is also plausible"
_ALSO_RIGHT = re.compile(
    r"\s*(?:(?:also|equally)\s+)?(?:is|are|seems|looks|(?:would|might|could|may)"
    r"(?:\s+(?:also|equally|well))?\s+be)\s+(?:(?:also|equally|just\s+as)\s+)?"
    r"(?:plausible|possible|acceptable|valid|correct|right|likely|reasonable|defensible"
    r"|an?\s+(?:option|possibility|candidate|answer))\b(?:\s+(?:too|as\s+well)\b)?",
    re.I,
)
# A runner-up under a label ("Plan B:", "Runner-up:", "Second choice:", "Fallback:", "My
# second pick:"), or offered for a rejection ("If that's marked wrong, try 29 m/s"): a second
# candidate whatever it is. A value the scan reads is judged; otherwise the rest of the
# sentence is the offer (a formula, an interval, a phrase), and a long one offers ``""``.
_RUNNER_UP_LABEL = re.compile(
    r"\b(?:plan\s+b|runner[\s-]?up|(?:my\s+)?(?:second|next|backup|fallback)\s+(?:choice|pick|best)"
    r"|next[\s-]best(?:\s+(?:answer|guess|option|choice|pick))?|fallback|backup|alternate"
    r"|close\s+second)\s*(?:answer|guess|option|value)?\s*[:=]"
    r"|\b(?:plan\s+b|runner[\s-]?up|(?:my\s+)?second\s+(?:choice|pick|best|guess)|next[\s-]best)"
    r"\s+(?:answer\s+)?(?:is|would\s+be)\b"
    r"|\bif\s+(?:that|this|it|my\s+answer|the\s+(?:above|first|answer|grader|checker|key))\b"
    r"[^.!?\n]{0,40}?(?:\b(?:wrong|incorrect|rejected|rejects|marked|off|fails)\b"
    r"|(?:\bnot|n['’]t)\s+(?:accepted|right|correct)\b)[^.!?\n]{0,20}?[,:]?\s*"
    r"(?:then\s+)?(?:try|use|go\s+with|pick|choose|put|answer|submit)\b"
    r"|\b(?:otherwise|failing\s+that|else)\s*,?\s*(?:try|go\s+with|pick|submit)\b",
    re.I,
)
_RUNNER_UP_WORDS = 8  # a longer rest is prose, not an offered answer
# a value named the runner-up: "(… 29 m/s is the runner-up)", "29 m/s would be my second
# pick", "D is a close second"
_RUNNER_UP = re.compile(
    r"\s*(?:is|was|would\s+be)\s+(?:(?:the|my|a)\s+)?(?:runner[\s-]?up|close\s+second"
    r"|second\s+(?:choice|pick|guess|best|option|place)|next[\s-]best|backup|fallback|alternate"
    r"|plan\s+b)\b",
    re.I,
)
_CLAUSE_START = re.compile(r"[;:]|\((?=[^()]*$)")  # "(confidence 40%; 29 m/s …": after ";"


def _runner_up(rest: str) -> str:
    """What a runner-up label offers (see ``_RUNNER_UP_LABEL``): the value the scan reads
    right after it, else its words up to the sentence's end (``""`` when none or too many)."""
    item = _OFFER_ITEM.match(rest.strip())
    if item is not None and _FILLS_CLAUSE.match(rest.strip(), item.end()):
        return _item_value(rest.strip(), item)
    value = rest.strip(" \t\n.,;:!")
    while value.startswith("(") and value.count("(") > value.count(")"):
        value = value[1:].strip()  # the remark's own parenthesis: "(… is the runner-up)"
    while value.endswith(")") and value.count(")") > value.count("("):
        value = value[:-1].strip(" .,;:!")
    words = value.split()
    return " ".join(words) if len(words) <= _RUNNER_UP_WORDS else ""


# the words that make a value "also right" a second one (a value that "is correct" alone
# restates the box, and is judged all the same)
_ALSO_WORDS = re.compile(r"\b(?:also|equally|too|as\s+well|might|could|may)\b", re.I)
_ALSO_GAP_WORDS = 4  # "1.50 m for the distance is also possible"
_COUNTERFACTUAL = re.compile(
    r"\bif\b[^.;]{0,80}?\b(?:were|had|weren't|hadn't)\b|^\W*(?:had|were)\s+(?:I|we|it|the|a|an)\b",
    re.I,
)
_DOUBT = re.compile(
    r"\b(?:if\s+(?:I|I'm|I\s+am|my|memory|we\s+(?:are|were)\s+(?:wrong|mistaken)|not)"
    r"|depending\s+on|unless\s+I|conventions?|interpretations?|reading|intended|meant)\b",
    re.I,
)
# a sentence that opens on another setup is a what-if: "Without the bank, the speed could be
# as low as 0 m/s", "For a frictionless block it could be $\\sqrt{2gh}$", also after a
# connective ("So for a sliding block one would get $\\sqrt{2gh}$ instead")
_OTHER_SETUP = re.compile(
    r"^\W*(?:(?:so|thus|hence|therefore|by\s+contrast|in\s+comparison|note\s+that)\b[\s,]*)?"
    r"(?:without\s+(?:the|a|an|any)|with(?:out)?\s+(?:a|an|no)\s+(?!different\b)"
    r"|for\s+(?:a|an)\s+(?!different\b)|in\s+the\s+absence\s+of|under\s+(?:other|different))\b",
    re.I,
)
# a restatement in other symbols, defined in the same breath: "… $\\varepsilon/R$ with
# $\\varepsilon = BLv$"
_DEFINED_AFTER = re.compile(r"[\s$,]*(?:with|where)\s+\$?(?P<name>\\?[A-Za-z]\w*)\s*=")
_LATER_SCOPE = 25 * _WINDOW  # characters after the box whose sentences are read for offers


# A value that restates the box right after it ("\\boxed{14.5} m/s ≈ 52 km/h", ", which is
# 0.154", "= 1450 cm/s") or spans a range from it ("\\boxed{14.5}–29 m/s", "\\boxed{2.66} to
# 5.3 V"): it claims a value for the same quantity, so it must be right as well. A value
# that goes on in an operation ("= 2 \\times 7.25") is a step of working, and "to three
# significant figures" a precision.
_RESTATED = re.compile(
    r"^(?:[\s,;:(]|\\[,;:! \])]|\$|\\q?quad(?![a-zA-Z]))*"
    # "— in other words", ", which works out to", "(magnitude 300 m/s², pointing east)"
    r"(?:(?:–|—|--)\s*(?=in\s+other\s+words|that\s+is|i\.\s*e\.|which|or\b))?"
    r"(?:\\approx|≈|\\simeq|≃|\\sim|∼|=|\\Rightarrow|⇒|\\implies"
    r"|which\s+(?:works|comes|turns)\s+out\s+(?:to(?:\s+be)?|as)|which\s+(?:amounts|corresponds"
    r"|translates|converts|comes|rounds)\s+(?:to|into)|which\s+is\s+to\s+say|(?P<magnitude>(?:with\s+(?:a\s+)?)?magnitude(?:\s+(?:of|is))?)"
    r"|\\equiv|≡|→|\\to|which\s+is|that\s+is(?:\s+to\s+say)?|i\.\s*e\.|(?:or\s+)?equivalently|namely"
    # a correction in a remark: "(really 0.308)", "(or rather 0.308)", "(in fact D)"
    r"|really|actually|in\s+(?:fact|truth|reality)|(?:or\s+)?rather|more\s+(?:precisely|exactly"
    r"|accurately|correctly)|strictly(?:\s+speaking)?|correctly|truly"
    r"|otherwise\s+(?:stated|put|said|written|expressed|phrased)"
    r"|in\s+other\s+words|–|—|--|\\text\s*\{\s*--?\s*\}|-(?=\s*\d)|~(?=\s*\d)|/(?=\s)"
    r"|to(?!\s+(?:\d+|one|two|three|four|five)\s*(?:s\.?\s*f|sig|signif"
    r"|decimal|d\.\s*p|places|figures|digits|dp\b)))(?![a-zA-Z])"
    rf"\s*,?\s*{_FILLER}",
    re.I,
)
_OPERATION_AFTER = re.compile(  # an operator and its operand: "= 2 \\times 7.25", not "- the …"
    r"\s*(?:[-+*/^×·]|\\(?:times|cdot|div|frac)(?![a-zA-Z]))\s*(?:[\d(\\{.]|[A-Za-z](?![A-Za-z]))"
)


def _restated(after: str, in_math: bool) -> tuple[str, ...]:
    """The value restating the box or spanning a range from it, right after the box and its
    unit (see ``_RESTATED``); in the box's math, the rest of that math."""
    if eliminated_options(after) is not None:
        return ()  # "— A, C, D eliminated": options struck out, none offered
    tail = after[: 2 * _WINDOW].translate(_INVISIBLE_CHARACTERS).translate(_LOOK_ALIKES)
    found = _restated_in(tail, in_math)
    if found:
        return found
    # a remark cut into text pieces reads as one: "\\ \\text{(really }0.308\\text{)}"
    pieces = _UNIT_WRAPPER.sub(r"\1", tail)
    found = _restated_in(pieces, in_math) if pieces != tail else ()
    if found:
        return found
    # a value in words: "(i.e. fifty-seven kilometres per hour)" (red team r35a)
    worded = numbers_in_digits(pieces)
    found = _restated_in(worded, in_math) if worded != pieces else ()
    # … in a unit ("four complete swings every second" restates 4.0 Hz in other words)
    return found if all(_in_a_unit(value) for value in found) else ()


def _in_a_unit(value: str) -> bool:
    """Whether ``value`` is a number followed by a unit the unit reader reads."""
    from studybench.verify.units import parse_unit

    value = value.rsplit(MAGNITUDE, 1)[-1]
    number = re.match(r"[-+−]?[\d.]+\s*", value)
    return number is not None and parse_unit(value[number.end() :]) is not None


def _restated_in(tail: str, in_math: bool) -> tuple[str, ...]:
    """:func:`_restated` on the text after the box as given."""
    for text in (tail, _UNIT_AFTER_BOX.sub("", tail, count=1)):
        match = _RESTATED.match(text)
        if match is None:
            continue
        close = _MATH_CLOSE.search(tail)  # the box's math closes before the restatement
        start = len(tail) - len(text) + match.end()  # where the value starts in ``tail``
        in_box_math = in_math and (close is None or close.start() >= start)
        value = _math_offer(text[match.end() :]) if in_box_math else None
        if value is not None:
            return (value,)
        item = _OFFER_ITEM.match(text, match.end())
        if item is not None and _ELIMINATION.match(text, item.start()):
            return ()  # "(actually, A and D are both wrong)": options struck out, none offered
        if item is not None and not _OPERATION_AFTER.match(text, item.end()):
            direction = _DIRECTION_AFTER.match(text, item.end())
            side = f"{MAGNITUDE}{direction.group('side')}{MAGNITUDE}" if direction else ""
            if not side and match.group("magnitude"):
                side = MAGNITUDE * 2  # "(magnitude 300 m/s²)": either sign
            return (side + _item_value(text, item),)
    for text in (tail, _UNIT_AFTER_BOX.sub("", tail, count=1)):
        listed = _LISTED.match(text)
        if listed is None:
            continue
        item = _OFFER_ITEM.match(text, listed.end())
        if item is None or _OPERATION_AFTER.match(text, item.end()):
            continue
        closing = _FILLS_CLAUSE if listed.group("paren") is None else _CONDITION_AFTER
        if closing.match(text, item.end()):
            return (_item_value(text, item),)
    return ()


# A value with a unit alone in parentheses right after the box (and its unit): "\\boxed{14.5\\,
# \\mathrm{m/s}}\\ (52\\,\\mathrm{km/h})", "(about 92 minutes)", "\\boxed{0.154} (15.4\\,\\%)":
# the box's value in other units, which must then be right too (the verifier judges it
# where its unit measures what the box's does). A bare number there is an equation's tag or
# a count ("(1)", "(n = 3)"), not read.
_ABOUT_WORD = r"(?:about|approximately|approx\.|roughly|around|ca\.|~|≈|∼|≃|\\approx|\\sim|\\simeq)"
_REMARK_VALUE = re.compile(
    rf"^(?:\s|\\[,;:! ]|~|\$|\\q?quad(?![a-zA-Z]))*(?:\(\s*(?:{_ABOUT_WORD}\s*)?"
    r"(?P<value>[-+−]?\$?\s*\.?\d[^()]{0,48}?)\s*\)"
    # or after a comma: "\\boxed{…}, about $7.5\\,\\mathrm{nm}$."
    rf"|,\s*(?:or\s+)?{_ABOUT_WORD}\s+(?P<said>\$?\s*\.?\d[^()\n]{{0,48}}?)\s*(?:[.;](?!\d)|$))"
)


# What a remark in parentheses right after the box, on its line, says (``\\ (6.0\\,p_0V_0)``,
# ``\\ \\left(= \\frac{kx^2}{4mg}\\right)``, ``(\\text{virtual and upright})``), a relation or
# "i.e." before it dropped: the verifier judges it as the box's content where it is about
# the answer (an option's text, the gold's symbols).
_REMARK = re.compile(
    r"^(?:[ \t]|\\[,;:! ]|~|\$|\\q?quad(?![a-zA-Z]))*(?:\\left\s*)?\(\s*(?:(?:=|\\approx|≈|\\simeq"
    r"|i\.\s*e\.,?|that\s+is,?|namely)\s*)?(?P<content>[^()]{1,80}?)\s*(?:\\right\s*)?\)"
)


def remark_content(after: str) -> str | None:
    """What a remark in parentheses right after a box says (see ``_REMARK``), or None."""
    tail = _UNIT_WRAPPER.sub(r"\1", after[: 2 * _WINDOW])
    match = _REMARK.match(tail)
    if match is None:
        return None
    content = _REMARK.match("(" + match.group("content") + ")")  # "(i.e. …)" in text pieces
    said = (content or match).group("content").replace("$", "").strip()
    return said or None


def remark_value(after: str) -> str | None:
    """The value with a unit a remark in parentheses right after a box gives alone (see
    ``_REMARK_VALUE``), or None."""
    tail = _UNIT_WRAPPER.sub(r"\1", after[: 2 * _WINDOW])
    worded = numbers_in_digits(tail)  # "(sixty thousand newtons)" (red team r35a)
    for text in dict.fromkeys((tail, _UNIT_AFTER_BOX.sub("", tail, count=1), worded)):
        match = _REMARK_VALUE.match(text)
        if match is not None:
            said = (match.group("value") or match.group("said")).replace("$", "").strip()
            read = _link_value(re.sub(r"\\mu\s*", "µ", said))
            return said if read is not None and read[1] else None
    return None


# a second value listed right after the box ("\\boxed{0.154} and 0.308", "\\boxed{14.5} m/s,
# 29 m/s.") and filling its clause, or put in parentheses under a condition ("(29 m/s if the
# other convention is used)")
_LISTED = re.compile(r"^(?:\s|\\[,;:! ]|\$)*(?:,|\band\b|&|(?P<paren>\())\s*", re.I)
_FILLS_CLAUSE = re.compile(
    r"\s*\$?\s*(?:[.;!)\]]|\n|$)|\s+being\b|\s+(?:is|as)\s+(?:an?\s+)?(?:other|alternative|second)\b"
)
_CONDITION_AFTER = re.compile(
    r"\s+(?:if|unless|when|depending|for\s+(?:a|an|the)\s+other|with\s+(?:a|an|the)\s+other"
    r"|under|in\s+case|assuming)\b",
    re.I,
)


# a magnitude with its direction in words: "(i.e. 30.0 cm to the left of lens 2)": the sign
# is in the words, so the value is judged as a magnitude, its direction between two MAGNITUDE
# marks before it ("\u2223left\u222330.0 cm"), which the question's sign convention may sign
MAGNITUDE = "\u2223"
_DIRECTION_AFTER = re.compile(
    r",?\s+(?:(?:pointing|pointed|directed|heading|going|moving|acting)\s+)?"
    r"(?:to\s+the\s+|on\s+the\s+|in\s+the\s+"
    r"|towards?\s+(?:the\s+)?(?=(?:north|south|east|west|left|right|up|down)))?(?P<side>left|right|below|above|behind|front"
    r"|up(?!\s+to\b)|down|upwards?|downwards?|(?:north|south|east|west)(?:wards?|bound)?"
    r"|towards?|away|inwards?|outwards?|clockwise|counterclockwise|anticlockwise)\b",
    re.I,
)
_MATH_CLOSE = re.compile(r"\$\$|\\\]|\\\)|(?<!\\)\$")
# what may open the rest of a math after a hedge or restatement word without being the value
_MATH_LEAD = re.compile(
    r"^(?:\s|[{}(),;:]|\\(?:quad|qquad|[,;:! ]|enspace|enskip)(?![a-zA-Z])"
    r"|\\(?:text|textrm|mathrm|mbox)\s*\{(?:\s|or|and|equivalently|also|i\.e\.|that\s+is|maybe"
    r"|perhaps|possibly|even|rather|simply)*\}"
    r"|\b(?:equivalently|also|maybe|perhaps|possibly|even|rather|simply|written|as|i\.e\.)\b)*",
    re.I,
)
_MATH_VALUE_CHARS = 200  # a longer rest is prose, not a value


def _box_in_math(before: str) -> bool:
    """Whether the box stands in math: an odd count of ``$$`` or of lone ``$`` before it, or
    a ``\\[``/``\\(`` opened and not closed."""
    head = before.replace("\\$", "  ")  # "$\\$$" is closed: the escaped dollar joins nothing
    if head.count("$$") % 2:
        return True
    if head.replace("$$", "").count("$") % 2:
        return True
    return any(head.rfind(a) > head.rfind(b) for a, b in (("\\[", "\\]"), ("\\(", "\\)")))


def _math_offer(rest: str) -> str | None:
    """The value the rest of the box's math offers (up to the math's end), or None."""
    close = _MATH_CLOSE.search(rest)
    if close is None or close.start() > _MATH_VALUE_CHARS or "\n\n" in rest[: close.start()]:
        return None
    value = _MATH_LEAD.sub("", rest[: close.start()], count=1).strip(" ,;.")
    while value.endswith(("}", ")")) and (
        value.count("}") > value.count("{") or value.count(")") > value.count("(")
    ):
        value = value[:-1].rstrip(" ,;.")  # the close of a group the hedge word opened in
    return value or None


def _later_offers(after: str, in_math: bool = False) -> tuple[str, ...]:
    """The values the prose after the box offers in its later sentences (see
    ``_LATER_OFFER`` and ``_ALSO_RIGHT``); ``""`` for an offer relative to the box ("It
    could be twice that")."""
    text = after[:_LATER_SCOPE].translate(_INVISIBLE_CHARACTERS).translate(_LOOK_ALIKES)
    close = _MATH_CLOSE.search(text) if in_math else None
    if close is not None:  # the box's own math ends first: its "$" pairs with no later one
        text = " " * close.end() + text[close.end() :]
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]

    def sentence(at: int) -> tuple[int, int]:
        start = max((end for end in ends if end <= at), default=0)
        return start, next((end for end in ends if end > at), len(text))

    def what_if(start: int, stop: int) -> bool:
        words = text[start:stop]
        other = _COUNTERFACTUAL.search(words) or _OTHER_SETUP.match(words)
        return other is not None and _DOUBT.search(words) is None

    values: list[str] = []
    for match in _LATER_OFFER.finditer(text):
        start, stop = sentence(match.start())
        if what_if(start, stop):
            continue
        rest = text[match.end() : stop]
        if _relative(rest):
            values.append("")
            continue
        item = _OFFER_ITEM.match(rest)  # the value right after it: "it could be that …" offers none
        if item is not None and _ELIMINATION.match(rest, item.start()):
            continue  # "Actually, A and D are both incorrect": options struck out, none offered
        defined = _DEFINED_AFTER.match(rest, item.end()) if item is not None else None
        if item is not None and (defined is None or defined.group("name") not in item.group()):
            values += _offered_after(rest)
    for match in _RUNNER_UP_LABEL.finditer(text):
        start, stop = sentence(match.start())
        if not what_if(start, stop):
            values.append(_runner_up(text[match.end() : stop]))
    for match in _RUNNER_UP.finditer(text):
        start, _ = sentence(match.start())
        if what_if(start, match.end()):
            continue
        items = list(_OFFER_ITEM.finditer(text, start, match.start()))
        if items and not text[items[-1].end() : match.start()].strip():
            values.append(_item_value(text, items[-1]))
        else:  # "(20, 45) is the runner-up", "runs fast is the runner-up": the clause's subject
            values.append(_runner_up(_CLAUSE_START.split(text[start : match.start()])[-1]))
    for match in _ALSO_RIGHT.finditer(text):
        start, _ = sentence(match.start())
        items = list(_OFFER_ITEM.finditer(text, start, match.start()))
        if not items or what_if(start, match.end()):
            continue
        gap = text[items[-1].end() : match.start()]
        claimed = _ALSO_WORDS.search(text, items[-1].end(), match.end()) is not None
        if claimed and len(gap.split()) <= _ALSO_GAP_WORDS:
            values.append(_item_value(text, items[-1]))
    return tuple(values)


# what introduces a further offer in the sentence after the box: a hedge word, a restatement
_OFFER_START = re.compile(rf"{_OFFERING}|\bi\.\s*e\.|\bthat is\b|\bperhaps\b", re.I)
_LIST_JOIN = re.compile(r"^\s*(?:,|and\b|&)?\s*$", re.I)  # a number's comma may end it


# a part's tag in a summary of a problem's parts: "(a)", "(ii)", "b)", "Part (c):"
_PART_TAG = re.compile(
    r"(?:(?<![\w(])part\s*)?(?:(?<![\w)\]])\(\s*(?P<part>[a-h]|[ivx]{1,4})\s*\)"
    r"|(?<![\w(])(?P<bare>[a-h])\))"
    r"(?=\s*[:.]?\s*[-+−$\d\\A-Za-z])",
    re.IGNORECASE,
)


_LETTER_PARTS = frozenset("abcdefgh")
_ROMAN_PARTS = frozenset(ROMAN_NUMERALS)


def _offered_after(region: str) -> list[str]:
    """The values a sentence after the box offers: the first value after the opening hedge
    word and after each later hedge word or restatement ("i.e."), and the values listed right
    after one ("or perhaps 15 m/s, 29 m/s"). Other numbers in the sentence ("which is fast for
    a 2 kg ball") are no offers."""
    tags = list(_PART_TAG.finditer(region))
    names = {(tag.group("part") or tag.group("bare")).lower() for tag in tags}
    if len(names) >= 2 and (names <= _LETTER_PARTS or names <= _ROMAN_PARTS):
        # a summary of a problem's parts ("Summary: (a) 60.0 cm, (b) -2.00."): each value
        # answers its part, and the part asked now is the last one summed up; what stands
        # before the first tag is read as ever ("Could be 29 m/s: (a) …, (b) …")
        region = region[: tags[0].start()] + " " + region[tags[-1].end() :]
    items = list(_OFFER_ITEM.finditer(region))
    starts = [0, *(m.end() for m in _OFFER_START.finditer(region))]
    found: list[str] = []
    taken: set[int] = set()
    for start in starts:
        index = next((i for i, item in enumerate(items) if item.start() >= start), None)
        while index is not None and index not in taken:
            taken.add(index)
            found.append(_item_value(region, items[index]))
            following = index + 1
            listed = following < len(items) and _LIST_JOIN.match(
                region[items[index].end() : items[following].start()]
            )
            index = following if listed else None
    return found


def _items(region: str) -> list[str]:
    return [_item_value(region, item) for item in _OFFER_ITEM.finditer(region)]


def _item_value(region: str, item: re.Match[str]) -> str:
    """One offered value as written; a bare number in math keeps the unit written after it
    (``$3.84\\times10^{10}$ cm``)."""
    value = next(v for v in item.groups() if v is not None).strip().rstrip(",;:").strip()
    while value.endswith("}") and value.count("}") > value.count("{"):
        value = value[:-1].rstrip()  # the close of a group the offer stands in: "\\rlap{or 29}"
    unit = _UNIT_AFTER_MATH.match(region, item.end())
    if (item.group("math") or item.group("paren")) and unit and _NUMBER_ONLY.match(value):
        value += " " + unit.group("unit")
    elif item.group("math") and unit and _LABELLED_NUMBER.match(value):
        value += " " + unit.group("unit")  # "That is $T = 92.4$ min": the unit is the number's
    if item.group("number") and _PER_CENT.match(region, item.end()):
        value += "%"  # "(i.e. 15.4 per cent)": the unit reader knows "%", not "per cent"
    return value


_PER_CENT = re.compile(r"\s*per\s+cent\b", re.IGNORECASE)


_WRITTEN_NUMBER = (
    r"[-+−]?\s*\d[\d.,]*(?:\s*(?:\\times|×|\\cdot)\s*10\s*\^\s*\{?\s*[-+−]?\d+\s*\}?)?"
)
_NUMBER_ONLY = re.compile(rf"^{_WRITTEN_NUMBER}\s*$")
# a labelled bare number: "T = 92.4", "v \\approx 52" (its last side is the number)
_LABELLED_NUMBER = re.compile(
    rf"^[^=<>$]{{1,40}}?(?:=|≈|\\approx(?![A-Za-z])|\\simeq(?![A-Za-z]))\s*{_WRITTEN_NUMBER}\s*$"
)
# a unit written after an offered number's math: a short word that is no English one
_UNIT_AFTER_MATH = re.compile(
    r"\s*(?P<unit>(?!(?:as|and|or|is|in|at|a|an|the|of|for|to|by|if|so|it|be|we|which|that)\b)"
    r"[A-Za-zµμΩ°%Å][A-Za-z/^\d\-]{0,8})(?![\w])"
)


def _first_value(rest: str) -> str:
    """The value that prose after a hedge word offers: its first inline math, or the text
    from the first value sign to the end of the clause, whichever comes first."""
    math = _INLINE_MATH.search(rest)
    found = _OFFERED_VALUE.search(rest)
    if math is not None and (found is None or math.start() <= found.start()):
        return _math_content(math.group())
    if found is None:
        return ""
    sign = _SIGN_BEFORE.search(rest[: found.start()])  # "-14.5 m/s" is offered whole
    value = rest[sign.start() if sign else found.start() :]
    end = _VALUE_END.search(value)
    value = value[: end.start() if end else None].strip()
    unopened = value.count(")") + value.count("]") - value.count("(") - value.count("[")
    while unopened > 0 and value.endswith((")", "]")):  # the offer's own parenthesis closes
        value, unopened = value[:-1].rstrip(), unopened - 1
    return value


def _last_value(head: str, words: str) -> str:
    """The value that prose before a hedge word offers: the words from the first value sign
    on, with inline math (``0⟦i⟧`` in ``words``) given back as written."""
    found = _OFFERED_VALUE.search(words)
    if found is None:
        return ""
    maths = [_math_content(m) for m in _INLINE_MATH.findall(head)]
    sign = _SIGN_BEFORE.search(words[: found.start()])
    start = sign.start() if sign else found.start()
    value = _MATH_MARK.sub(lambda m: f" {maths[int(m.group(1))]} ", words[start:])
    return value.strip(" ,;:")


def _math_content(math: str) -> str:
    return math[2:-2] if math.startswith("\\(") else math[1:-1]


_MATH_MARK = re.compile(r"0⟦(\d+)⟧")


def _plain_keep_math(text: str) -> str:
    """:func:`_plain` with inline math kept as a value's trace: the i-th math of ``text``
    reads as ``0⟦i⟧`` (``$29$`` is ``0⟦0⟧``)."""
    count = iter(range(len(text)))
    return _plain(_INLINE_MATH.sub(lambda _: f" 0⟦{next(count)}⟧ ", text))
