# SPDX-License-Identifier: GPL-2.0
# WebSearch flow sizes (the DCTCP paper's web search cluster, as the
# DCQCN-era comparisons and the HPCC paper use it): "BYTES PERCENT" points
# of the CDF, linear between them.  Data taken as published in
# alibaba-edu/High-Precision-Congestion-Control, traffic_gen/
# WebSearch_distribution.txt (commit 9f4be2a9).  Mean 1,711,250 bytes.
0 0
10000 15
20000 20
30000 30
50000 40
80000 53
200000 60
1000000 70
2000000 80
5000000 90
10000000 97
30000000 100
