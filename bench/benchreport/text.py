"""How numbers are written in RESULTS.md, the README and the CSV files."""
import math
import re


def fmt(v):
    """Three significant digits, whole numbers without decimals, no exponent: 0.000123, 1.05,
    12.3, 4567; 'n/a' for None or NaN."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    if math.isinf(v):
        return "inf"
    a = abs(v)
    if v == 0 or (a >= 1 and v == int(v)):
        return f"{v:.0f}"
    if a >= 100:
        return f"{v:.0f}"
    digits = max(0, 2 - int(math.floor(math.log10(a))))
    return f"{v:.{digits}f}"


def span(vals):
    """'a' or 'a-b' over the values (formatted with fmt)."""
    lo, hi = min(vals), max(vals)
    return fmt(lo) if lo == hi else f"{fmt(lo)}-{fmt(hi)}"


def fmt_cv(v):
    """A coefficient of variation: two decimals; 'n/a' without one."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    return f"{v:.2f}"


def and_list(items):
    """'a', 'a and b', 'a, b and c'."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def fmt_ratio(v):
    """A ratio: two decimals below 10 (1.00, 0.97), else as fmt."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    if math.isinf(v) or abs(v) >= 10:
        return fmt(v)
    return f"{v:.2f}"


def fmt_ci(ratio, low, high):
    """'1.05 [0.98-1.12]', or '1.05 [no interval]' when there is none."""
    if ratio is None:
        return "n/a"
    if low is None or high is None:
        return f"{fmt_ratio(ratio)} [no interval]"
    return f"{fmt_ratio(ratio)} [{fmt_ratio(low)}-{fmt_ratio(high)}]"


def csv_num(v):
    """A number for a CSV file: 4 decimals, 'inf', or empty for none."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if math.isinf(v):
        return "inf"
    return f"{v:.4f}"


def verdict_words(v):
    return {"same": "same (interval includes 1)", "worse": "**worse** (interval above 1)",
            "better": "**better** (interval below 1)"}.get(v, "no interval (too few runs)")


def ini_settings(text):
    """{(section, key): value} of an autoswappiness.conf text: the lines that take effect (no
    comment lines, no blank lines; a ';' comment after a space is cut), as the daemon's ini
    reader sees them."""
    out, sec = {}, ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            sec = line[1:-1].strip()
            continue
        key, eq, value = line.partition("=")
        if eq:
            out[(sec, key.strip())] = value.split(" ;")[0].strip()
    return out


def effective_settings(conf):
    """ini_settings of a configuration with the defaults it documents: a key line commented out
    (`#max = auto`, as the shipped file lists every default) counts as set, and a line that is
    set wins over it."""
    documented = "\n".join(re.sub(r"^\s*#\s*(?=[a-z_0-9]+\s*=)", "", line) for line in conf.splitlines())
    return {**ini_settings(documented), **ini_settings(conf)}


def config_delta(shipped, other):
    """What OTHER sets differently from SHIPPED, as "[section] key = value" (or "key unset"),
    sorted: comments and layout do not count."""
    a, b = ini_settings(shipped), ini_settings(other)
    out = [f"[{s}] {k} = {b[(s, k)]}" for s, k in sorted(b) if a.get((s, k)) != b[(s, k)]]
    out += [f"[{s}] {k} unset" for s, k in sorted(a) if (s, k) not in b]
    return out
