#!/usr/bin/env python3
# Writes the small data sets of testdata/examples/ that the examples of
# README.md and docs/cli.md run on (TestDocs in cmd/pearson runs them).
# Deterministic: the same files on every run.
import random

rnd = random.Random(2026)

# series.csv: 1000 rows, one every 0.5 time units; the spread of x is
# tripled at t = 125, back at t = 250 and tripled again at t = 375; its mean
# never changes.
with open("testdata/examples/series.csv", "w") as f:
    f.write("t,x\n")
    for i in range(1000):
        sd = 3 if 250 <= i < 500 or i >= 750 else 1
        f.write("%g,%.4f\n" % (0.5 * i, rnd.gauss(0, sd)))

# ref.csv and cur.csv: 2000 rows of a reference and a current table. In the
# current one latency is shifted by half a standard deviation and device's
# frequencies change; amount and region keep their distributions.
def table(path, shift, devices):
    with open(path, "w") as f:
        f.write("latency,amount,region,device\n")
        for _ in range(2000):
            latency = rnd.gauss(100 + 10 * shift, 10)
            amount = rnd.lognormvariate(3, 0.5)
            region = rnd.choices(["north", "south", "east", "west"], [0.4, 0.3, 0.2, 0.1])[0]
            device = rnd.choices(["phone", "desktop", "tablet"], devices)[0]
            f.write("%.2f,%.2f,%s,%s\n" % (latency, amount, region, device))

table("testdata/examples/ref.csv", 0, [0.5, 0.4, 0.1])
table("testdata/examples/cur.csv", 0.5, [0.65, 0.25, 0.1])
