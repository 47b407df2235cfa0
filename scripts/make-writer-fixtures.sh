#!/usr/bin/env bash
# Writes the sample (data/subjekti.json) as each real spreadsheet writer saves it, into
# test/fixtures/spreadsheet-writers/: the tests read these files, so the programs are needed only
# to regenerate them. Debian: apt-get install python3-openpyxl python3-xlsxwriter gnumeric libreoffice-calc-nogui
#   openpyxl.xlsx     openpyxl (what pandas' to_excel uses): absolute relationship targets
#   xlsxwriter.xlsx   xlsxwriter: shared strings, booleans as boolean cells
#   exceljs.xlsx      `subjekti export` (exceljs's writer, as Excel-like): inline strings
#   libreoffice.xlsx  exceljs.xlsx opened and saved by LibreOffice Calc: booleans as TRUE() formula cells
#   gnumeric.xlsx     exceljs.xlsx converted by Gnumeric's ssconvert: indented inline strings
#   libreoffice.ods   exceljs.xlsx saved by LibreOffice in its own format (OpenDocument)
# Debian's Python (/usr/bin/python3, where python3-openpyxl installs) writes the first two.
# And number-cells/, four records of the sample as each writer saves them when an OIB (04323472109)
# and a code (0002) were typed as numbers, zeros gone: openpyxl and xlsxwriter write number cells,
# LibreOffice and Gnumeric open xlsxwriter's and save it (the number cells are theirs then).
set -euo pipefail
cd "$(dirname "$0")/.."
out=test/fixtures/spreadsheet-writers
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out/number-cells"

/usr/bin/python3 - "$out" <<'PY'
import json, sys
import openpyxl, xlsxwriter
out = sys.argv[1]
rows = json.load(open("data/subjekti.json", encoding="utf-8"))
fields = list(rows[0].keys())

wb = openpyxl.Workbook()
ws = wb.active
ws.title = "subjekti"
ws.append(fields)
for r in rows:
    ws.append([r[f] for f in fields])
wb.save(f"{out}/openpyxl.xlsx")

wb = xlsxwriter.Workbook(f"{out}/xlsxwriter.xlsx")
ws = wb.add_worksheet("subjekti")
ws.write_row(0, 0, fields)
for i, r in enumerate(rows, start=1):
    for j, f in enumerate(fields):
        v = r[f]
        if isinstance(v, bool): ws.write_boolean(i, j, v)
        elif isinstance(v, int): ws.write_number(i, j, v)
        else: ws.write_string(i, j, v)
wb.close()

# Four records; the second's code and the fourth's OIB as numbers, as a spreadsheet keeps digits typed in.
numbered = {3: {"jedinstvena_oznaka"}, 29: {"oib"}}
small = [r for r in rows if r["id"] in (2, 3, 4, 29)]
wb = openpyxl.Workbook()
ws = wb.active
ws.title = "subjekti"
ws.append(fields)
for r in small:
    ws.append([int(r[f]) if f in numbered.get(r["id"], ()) else r[f] for f in fields])
wb.save(f"{out}/number-cells/openpyxl.xlsx")

wb = xlsxwriter.Workbook(f"{out}/number-cells/xlsxwriter.xlsx")
ws = wb.add_worksheet("subjekti")
ws.write_row(0, 0, fields)
for i, r in enumerate(small, start=1):
    for j, f in enumerate(fields):
        v = r[f]
        if isinstance(v, bool): ws.write_boolean(i, j, v)
        elif isinstance(v, int) or f in numbered.get(r["id"], ()): ws.write_number(i, j, int(v))
        else: ws.write_string(i, j, v)
wb.close()
PY

node bin/subjekti.js export --data data --out "$tmp/exceljs.xlsx" --format xlsx >/dev/null
cp "$tmp/exceljs.xlsx" "$out/exceljs.xlsx"
# LibreOffice's own profile in the temporary directory: nothing of the user's is read or written.
soffice -env:UserInstallation="file://$tmp/lo" --headless --calc --convert-to xlsx:"Calc MS Excel 2007 XML" --outdir "$tmp/lo-out" "$tmp/exceljs.xlsx" >/dev/null
cp "$tmp/lo-out/exceljs.xlsx" "$out/libreoffice.xlsx"
soffice -env:UserInstallation="file://$tmp/lo" --headless --calc --convert-to ods --outdir "$tmp/lo-out" "$tmp/exceljs.xlsx" >/dev/null
cp "$tmp/lo-out/exceljs.ods" "$out/libreoffice.ods"
ssconvert "$tmp/exceljs.xlsx" "$tmp/gnumeric.xlsx" >/dev/null 2>&1
cp "$tmp/gnumeric.xlsx" "$out/gnumeric.xlsx"
soffice -env:UserInstallation="file://$tmp/lo" --headless --calc --convert-to xlsx:"Calc MS Excel 2007 XML" --outdir "$tmp/lo-numbers" "$out/number-cells/xlsxwriter.xlsx" >/dev/null
cp "$tmp/lo-numbers/xlsxwriter.xlsx" "$out/number-cells/libreoffice.xlsx"
ssconvert "$out/number-cells/xlsxwriter.xlsx" "$out/number-cells/gnumeric.xlsx" >/dev/null 2>&1
ls -l "$out" "$out/number-cells"
