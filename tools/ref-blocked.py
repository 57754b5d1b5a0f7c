#!/usr/bin/python3
# tools/ref-blocked.py - reference values for tests/unit/test_blocked.c,
# computed independently of mempath with scipy (Debian's python3-scipy,
# 1.10.1): van Elteren's stratified rank-sum test by full enumeration of the
# within-stratum arrangements (exact) and from scipy.stats.rankdata (normal
# approximation), Student t quantiles, the t interval of log ratios, and the
# order-statistic CI of a median from scipy.stats.binom.
import itertools, math
import numpy as np
from scipy import stats

def ve_normal(strata, cc):
    t = v = 0.0
    for a, b in strata:
        x = np.concatenate([a, b]); n = len(x)
        r = stats.rankdata(x)
        w = 1.0 / (n + 1)
        dev = r[len(a):].sum() - len(b) * (n + 1) / 2
        _, counts = np.unique(x, return_counts=True)
        tie = (counts ** 3 - counts).sum()
        var = len(a) * len(b) / 12 * ((n + 1) - tie / (n * (n - 1)))
        t += w * dev; v += w * w * var
    wstep = 1.0 / (len(strata[0][0]) + len(strata[0][1]) + 1)
    z = t / math.sqrt(v)
    p = min(1.0, 2 * stats.norm.sf(max(0.0, abs(t) - (0.5 * wstep if cc else 0)) / math.sqrt(v)))
    return z, p

def ve_exact(strata):
    # every arrangement of each stratum's values between A and B, all strata at once
    obs = 0.0; per = []
    for a, b in strata:
        x = np.concatenate([a, b]); r = stats.rankdata(x)
        obs += r[len(a):].sum()
        sums = [sum(r[list(c)]) for c in itertools.combinations(range(len(x)), len(b))]
        per.append(sums)
    mean = sum(np.mean(s) for s in per)
    tot = hit = 0
    for combo in itertools.product(*per):
        tot += 1
        if abs(sum(combo) - mean) >= abs(obs - mean) - 1e-9:
            hit += 1
    return min(1.0, hit / tot)

def show(name, v):
    print(f"{name} = {v!r}")

s1 = [(np.array([1.1, 2.2, 3.3, 4.4]), np.array([5.5, 6.6, 7.7, 8.8, 9.9]))]
show("one stratum, exact (= mannwhitneyu)", stats.mannwhitneyu(s1[0][0], s1[0][1]).pvalue)
s2 = [(np.array([1, 2, 2, 3, 4.0]), np.array([2, 3, 3, 5, 6, 7.0]))]
show("one stratum, ties (= mannwhitneyu)", stats.mannwhitneyu(s2[0][0], s2[0][1]).pvalue)
s3 = [(np.array([10.1, 10.4, 9.8, 10.9]), np.array([10.6, 11.2, 10.3, 11.5])),
      (np.array([20.3, 19.7, 20.9, 20.1]), np.array([21.4, 20.5, 21.0, 19.9])),
      (np.array([15.2, 15.9, 14.8, 15.5]), np.array([15.1, 16.3, 16.0, 15.7]))]
show("three strata 4/4 exact p", ve_exact(s3))
show("three strata 4/4 z", ve_normal(s3, True)[0])
s4 = [(np.array([5, 6, 6, 7, 8.0]), np.array([6, 7, 8, 8, 9, 10.0])),
      (np.array([50, 52, 51, 53.0]), np.array([52, 54, 55.0])),
      (np.array([105, 101, 103, 102, 104, 100, 106.0]), np.array([103, 107, 108, 105, 109.0]))]
show("unequal strata, ties: z, p", ve_normal(s4, False))
s5 = [(np.array([3, 4, 4, 5, 6.0]), np.array([5, 6, 6, 7, 8.0])),
      (np.array([30, 31, 33, 33, 34.0]), np.array([32, 33, 35, 36, 36.0]))]
show("equal strata, ties: z, p (continuity-corrected)", ve_normal(s5, True))
for q, df in [(0.975, 1), (0.975, 2), (0.975, 4), (0.975, 9), (0.975, 29), (0.995, 5), (0.9, 3)]:
    show(f"t.ppf({q}, {df})", stats.t.ppf(q, df))
for t, df in [(3.3, 5), (0.5, 3), (12.0, 1), (2.0, 29), (-2.5, 4)]:
    show(f"2 * t.sf(|{t}|, {df})", 2 * stats.t.sf(abs(t), df))
r = np.array([1.21, 1.18, 1.25, 1.19])
show("ttest_1samp(log r, 0).pvalue", stats.ttest_1samp(np.log(r), 0).pvalue)
m = np.log(r).mean(); h = stats.t.ppf(0.975, 3) * np.log(r).std(ddof=1) / math.sqrt(4)
show("ratio t ci (est, lo, hi)", (math.exp(m), math.exp(m - h), math.exp(m + h)))
for n in [6, 10, 11, 40, 1000]:
    k = 0
    while k < n // 2 and stats.binom.cdf(k, n, 0.5) <= 0.025:
        k += 1
    show(f"median ci n={n}: 1-based lower index, coverage", (k, 1 - 2 * stats.binom.cdf(k - 1, n, 0.5)))
