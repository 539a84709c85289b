#!/usr/bin/env python3
"""Puts proxy-bench's Markdown table into a Markdown file, or checks that it is there unchanged.

The file is the DocC article Sources/DelegateProxyKit/DelegateProxyKit.docc/Performance.md.

Usage: readme-table.py --write ARTICLE.md TABLE.md   replace the article's table with TABLE.md
       readme-table.py --check ARTICLE.md TABLE.md   exit 1 when the article's table differs

TABLE.md is written by `proxy-bench --markdown TABLE.md` (from a run), or by
`proxy-bench --from-json REPORT.json --markdown TABLE.md` (from a committed report, as CI does).
The article holds the table between the markers below; everything between them is generated.
"""
import sys

BEGIN = "<!-- proxy-bench table: begin -->"
END = "<!-- proxy-bench table: end -->"


def split(text, path):
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        sys.exit(f"{path}: expected one '{BEGIN}' followed by one '{END}'")
    head, rest = text.split(BEGIN, 1)
    current, tail = rest.split(END, 1)
    return head, current.strip("\n") + "\n", tail


def main(argv):
    if len(argv) != 4 or argv[1] not in ("--write", "--check"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    mode, readme_path, table_path = argv[1:]
    with open(readme_path, encoding="utf-8") as handle:
        readme = handle.read()
    with open(table_path, encoding="utf-8") as handle:
        table = handle.read().strip("\n") + "\n"
    head, current, tail = split(readme, readme_path)
    if mode == "--check":
        if current != table:
            print(
                f"{readme_path}: the Performance table differs from {table_path} (rendered from the committed"
                " JSON); regenerate it with: bash Benchmarks/regenerate.sh",
                file=sys.stderr,
            )
            return 1
        print(f"{readme_path}: the Performance table matches {table_path}")
        return 0
    with open(readme_path, "w", encoding="utf-8") as handle:
        handle.write(f"{head}{BEGIN}\n{table}{END}{tail}")
    print(f"{readme_path}: Performance table replaced from {table_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
