# basics: the examples of README.md and docs/*.md that change the machine's
# own knobs (doctor --measure: an mTHP size enabled alone for its run) run
# as written and end as their commands document, by t0013's rules; t0013
# runs every other example, beside other tests, and leaves these to this
# one, which has nothing of ours beside it.
# test: alone (doctor --measure changes the per-size mTHP settings that tests beside it fingerprint)
DOC_EXAMPLES=knobs
. "$top/tests/cli/t0013-doc-examples.sh"
