"""What a build of cpudispatch resolved, and what a dispatch target is.

Read from cpudispatch_targets.txt, which tools/cpudispatch_configure.py
writes at configure time from the feature table and the options; shared by
cpudispatch_gen.py and cpudispatch_check.py, so this module holds no feature
data of its own.

A target is `baseline`, one feature (AVX2), or a group of features compiled
as one target (a source's list says AVX512_SKX+VPCLMULQDQ or NumPy's
(AVX2 FMA3)): its name joins the members, highest interest first, with
GROUP_SEP (AVX512_SKX__VPCLMULQDQ, NumPy's spelling), and it may run only
where every member may.
"""
import re

GROUP_SEP = '__'
# What separates the names of a feature list, in the build options, a
# dispatch source's target list and the environment variables alike
# (docs/options.md, "Feature lists"; src/runtime/env_masks.cpp spells the
# same five characters).
SEPARATORS = ' \t\r\n,'


def split_list(text):
    """The tokens of a feature list, in order."""
    return [t for t in re.split('[%s]+' % re.escape(SEPARATORS), text) if t]


class Config:
    def __init__(self, path=None):
        """From cpudispatch_targets.txt; without a path, empty (the caller
        fills order, flags and ext_sep: tools/cpudispatch_probe.py)."""
        self.arch = ''
        self.disabled = False
        self.baseline = []
        self.order = []          # every feature, ascending interest
        self.closure = {}        # feature -> implied features
        self.targets = []        # enabled dispatch targets, ascending interest
        self.token = {}          # accepted spelling -> feature
        self.foreign = {}        # spelling of another arch -> that arch
        self.retired = set()     # names no longer offered: ignored with a note
        self.flags = {}          # feature -> its own flags for this compiler
        self.target_flags = {}   # enabled target -> the flags configure merged
        self.ext_sep = '+'       # joins -march=BASE+ext spellings
        self.index = {}
        if path is None:
            return
        with open(path, encoding='utf-8') as fh:
            for line in fh:
                words = line.split()
                if not words or words[0].startswith('#'):
                    continue
                key, rest = words[0], words[1:]
                if key == 'arch':
                    self.arch = rest[0]
                elif key == 'disable-optimization':
                    self.disabled = rest[0] == '1'
                elif key == 'baseline':
                    self.baseline = rest
                elif key == 'feature':
                    self.order.append(rest[0])
                    self.closure[rest[0]] = rest[1:]
                elif key == 'target':
                    self.targets.append(rest[0])
                elif key == 'token':
                    self.token[rest[0]] = rest[1]
                elif key == 'foreign':
                    self.foreign[rest[0]] = rest[1]
                elif key == 'retired':
                    self.retired.add(rest[0])
                elif key == 'flags':
                    self.flags[rest[0]] = rest[1:]
                elif key == 'target-flags':
                    self.target_flags[rest[0]] = rest[1:]
                elif key == 'ext-sep':
                    self.ext_sep = rest[0]
        self.index = {f: i for i, f in enumerate(self.order)}

    # --- targets ------------------------------------------------------------
    def members(self, target):
        """The features of `target`, highest interest first ([] for the
        baseline); None if `target` names no feature or group of this arch."""
        if target == 'baseline':
            return []
        parts = target.split(GROUP_SEP)
        if not all(p in self.closure for p in parts):
            return None
        return parts

    def reduced(self, features):
        """A group's members without those another member implies or the
        baseline has (they add nothing), highest interest first; all of them
        in the baseline: the highest alone."""
        rest = [f for f in self.order if f in features and not any(f in self.closure[g] for g in features)]
        rest = [f for f in rest if f not in self.baseline] or rest[-1:]
        return sorted(rest, key=self.index.get, reverse=True)

    def group_name(self, features):
        return GROUP_SEP.join(sorted(features, key=self.index.get, reverse=True))

    def with_implied(self, features):
        """`features` and everything they imply, in table order."""
        got = set(features)
        for f in features:
            got.update(self.closure[f])
        return [f for f in self.order if f in got]

    def needs(self, target):
        """Features code built for `target` may use beyond the baseline."""
        return frozenset(f for f in self.with_implied(self.members(target)) if f not in self.baseline)

    def rank(self, target):
        """Sort key, ascending interest: by the highest member, then the
        next; a group ranks just above its highest member alone."""
        members = self.members(target)
        if members is None:  # not of this build: after every target
            return (len(self.order) + 1,)
        return tuple(sorted((1 + self.index[m] for m in members), reverse=True))

    # --- flags ----------------------------------------------------------------
    def merged_flags(self, features):
        """The compiler flags of a set of features: the rows' flags in table
        order, -march=BASE+ext / -mcpu=BASE+ext spellings merged into one
        flag with the base of the highest feature and every extension
        (riscv64: single-letter extensions first). Configure's merge too
        (tools/cpudispatch_probe.py), so a group's flags are a target's."""
        plain, exts, bases = [], {}, {}
        for f in self.order:
            if f not in features:
                continue
            for flag in self.flags.get(f, []):
                key = next((p for p in ('-march=', '-mcpu=') if flag.startswith(p)), '')
                if not key:
                    if flag not in plain:
                        plain.append(flag)
                    continue
                parts = flag.replace(key, '').split(self.ext_sep)
                have = exts.setdefault(key, [])
                have += [e for e in parts[1:] if e not in have and e != parts[0]]
                bases[key] = parts[0]
        out = []
        for key, base in bases.items():
            e = exts[key]
            if self.ext_sep == '_':
                e = [x for x in e if len(x) == 1] + [x for x in e if len(x) != 1]
            out.append(self.ext_sep.join([key + base] + e))
        return out + plain

    def target_args(self, target):
        """What cpudispatch_targets[T] adds for a target (a group's, which
        has no entry there): the merged flags of the baseline and the
        target's features, CPUD_TARGET and CPUD_TARGET_<F> for each."""
        feats = self.with_implied(self.members(target))
        flags = self.merged_flags(set(self.baseline) | set(feats))
        return flags + ['-DCPUD_TARGET=' + target] + ['-DCPUD_TARGET_%s=1' % f for f in feats]
