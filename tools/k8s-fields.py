#!/usr/bin/python3
"""tools/k8s-fields.py FILE.yaml... - every field of each Kubernetes object in
the files is one the API defines at that place, as `kubectl --validate=strict`
asks: the objects are walked with the models of Debian's python3-kubernetes
(generated from the Kubernetes OpenAPI spec; 22.6: the 1.22 API), whose
attribute maps name each type's fields and whose types say where to go on.
The types, formats and required fields are tools/k8s-validate.mjs's part.
One line a object; exit 0 every field known, 1 an unknown one, 2 bad use
(no model for the kind, unreadable file)."""
import sys

import yaml
from kubernetes.client import models


def walk(obj, t, path, errs):
    if t.startswith("list[") and isinstance(obj, list):
        for i, x in enumerate(obj):
            walk(x, t[5:-1], "%s[%d]" % (path, i), errs)
    elif t.startswith("dict(") and isinstance(obj, dict):
        inner = t[t.index(",") + 1 : -1].strip()
        for k, v in obj.items():
            walk(v, inner, "%s.%s" % (path, k), errs)
    elif hasattr(models, t) and isinstance(obj, dict):
        cls = getattr(models, t)
        names = {v: k for k, v in cls.attribute_map.items()}
        for k, v in obj.items():
            if k not in names:
                errs.append("%s.%s: unknown field (%s has no %s)" % (path, k, t, k))
            else:
                walk(v, cls.openapi_types[names[k]], "%s.%s" % (path, k), errs)


def model_of(doc):
    """apps/v1 DaemonSet -> V1DaemonSet, v1 Pod -> V1Pod."""
    version = str(doc.get("apiVersion", "")).split("/")[-1]
    name = version[:1].upper() + version[1:] + str(doc.get("kind", ""))
    return name if hasattr(models, name) else None


def main(files):
    if not files:
        print("usage: k8s-fields.py FILE.yaml...", file=sys.stderr)
        return 2
    bad = 0
    for f in files:
        try:
            docs = [d for d in yaml.safe_load_all(open(f)) if d is not None]
        except (OSError, yaml.YAMLError) as e:
            print("%s: %s" % (f, e), file=sys.stderr)
            return 2
        for doc in docs:
            what = "%s %s %s" % (
                doc.get("apiVersion"),
                doc.get("kind"),
                (doc.get("metadata") or {}).get("name", "(no name)"),
            )
            t = model_of(doc)
            if not t:
                print("%s: %s: no model for this apiVersion and kind" % (f, what), file=sys.stderr)
                return 2
            errs = []
            walk(doc, t, "", errs)
            print("%s: %s: %s" % (f, what, "; ".join(e.lstrip(".") for e in errs) or "every field known"))
            bad |= bool(errs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
