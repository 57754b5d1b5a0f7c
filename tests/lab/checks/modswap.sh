# The A/B/A of a driver module (stock -> patched -> stock) as a plan of
# two variants whose setup is a module swap: null_blk unloaded and loaded
# again with the variant's parameters (a memory-backed 1 GiB disk; the
# "patched" one capped at 20 MiB/s by its mbps parameter, so that 32 MiB take
# 1.6 s or more), each leg `wrap` of 32 MiB written to it and synced, in
# three rounds (stock patched patched stock stock patched). The module must
# be loaded after the setup (the plan's module condition) or the leg is
# refused.
mkdir plan
cat >plan/modswap.plan <<'PLAN'
command wrap -n 3 -- dd if=/dev/zero of=/dev/nullb0 bs=1M count=32 conv=fsync
legs stock patched patched stock stock patched
variant stock
  module null_blk
  setup rmmod null_blk; insmod /lib/modules/null_blk.ko nr_devices=1 memory_backed=1 gb=1 && cat /sys/module/null_blk/parameters/mbps
variant patched
  module null_blk
  setup rmmod null_blk; insmod /lib/modules/null_blk.ko nr_devices=1 memory_backed=1 gb=1 mbps=20 && cat /sys/module/null_blk/parameters/mbps
PLAN
mempath plan plan/modswap.plan >plan.out 2>plan.err
echo $? >plan.rc
cat plan.out
case $(cat plan.rc) in 0 | 3) exit 0 ;; *) exit 1 ;; esac
