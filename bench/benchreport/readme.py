"""The README's benchmark headline: the block between the bench markers of README.md next to
the report directory, rewritten by a real run and left alone by a BENCH_QUICK=1 try-out."""
import os

from . import model

BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"


def block(data, headline_lines, summary_png, plots_rel, goal_lines=(), short_lines=()):
    """The lines between the markers: where the figures come from, the answer in short
    (goals.in_short), the plain-words headline, how the shipped default does against its goals
    (goals.lines), the summary plot."""
    h = data.host
    redone = [x.split("@") for x in h.get("redone", "").split() if "@" in x]
    again = "".join(f"; {w.split('/')[-1]} on {w.split('/')[0]} swap measured again on {t[:10]}" for w, t in redone)
    g0 = data.guest.get("disk") or next(iter(data.guest.values()), {})
    lrus = [{"mglru": "multi-gen", "classic": "classic"}.get(x, x) for x in h.get("lrus", "classic").split()]
    guest = (f"{g0['guest_os']} guest, kernel {g0.get('guest_kernel', '?')}, " if g0.get("guest_os") else "")
    guest += f"the {' and the '.join(lrus)} LRU; "
    out = [BEGIN,
           f"From `make bench` of {h.get('started', '?')[:10]}{again} ({guest}{h.get('reps', '?')} repetitions of each setting"
           f"{f', more in {len(data.more_reps)} noisy cells' if data.more_reps else ''}, "
           f"{h.get('vm_mem_mb', '?')} MB TCG guest, {h.get('disk_mbps', '?')} MB/s disk, swap on "
           f"{' and '.join(dict.fromkeys(model.split_mode(m)[1] for m in data.swaps))}); [bench/RESULTS.md](bench/RESULTS.md) has every workload, setting and "
           "interval.", ""]
    out += short_lines
    out += headline_lines
    out += goal_lines
    if summary_png:
        out += [f"![Every setting against the best fixed value per workload; static 60 and the shipped default drawn large]"
                f"({plots_rel}/{summary_png})", ""]
    return out + [END]


def update(readme, lines):
    """Replaces the block between the markers of readme with lines (which hold the markers).
    Returns True when it did; False when the file or a marker is missing."""
    if not os.path.exists(readme):
        return False
    with open(readme) as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        return False
    text = text[:text.index(BEGIN)] + "\n".join(lines) + text[text.index(END) + len(END):]
    with open(readme, "w") as f:
        f.write(text)
    return True
