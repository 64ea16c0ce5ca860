# Merges the Markdown tables of several runs of build/bench/ui_latency (the files, in
# order): every number in the median and p95 columns becomes "median [min–max]" over
# the runs (the number alone when they agree); every other line is the first run's.
FNR == 1 { run++ }
{
  line[run, FNR] = $0
  if (FNR > lines) lines = FNR
}
END {
  for (i = 1; i <= lines; i++) {
    first = line[1, i]
    if (first !~ /^\| / || first ~ /^\|---/) { print first; continue }
    n = split(first, cell, "|")
    out = "|" cell[2]
    for (c = 3; c <= n - 1; c++) {
      text = cell[c]
      if (c == 3 || c == 4) {
        # the k-th number of this cell in every run
        for (r = 1; r <= run; r++) {
          split(line[r, i], rc, "|")
          s = rc[c]; k = 0
          while (match(s, /[0-9]+\.[0-9]+/)) {
            k++; val[r, k] = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
          }
          count = k
        }
        res = ""; s = text; k = 0
        while (match(s, /[0-9]+\.[0-9]+/)) {
          k++
          res = res substr(s, 1, RSTART - 1)
          m = 0
          for (r = 1; r <= run; r++) v[++m] = val[r, k] + 0
          # sort v[1..m]
          for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++) if (v[b] < v[a]) { t = v[a]; v[a] = v[b]; v[b] = t }
          med = v[int((m + 1) / 2)]
          dec = length(substr(s, RSTART, RLENGTH)) - index(substr(s, RSTART, RLENGTH), ".")
          f = "%." dec "f"
          if (v[1] == v[m]) res = res sprintf(f, med)
          else res = res sprintf(f " [" f "–" f "]", med, v[1], v[m])
          s = substr(s, RSTART + RLENGTH)
        }
        text = res s
      }
      out = out "|" text
    }
    print out "|"
  }
}
