# SPDX-License-Identifier: MIT
"""Feature lists and target names, over a build's Model
(src/build_side/cpudispatch_model.py): the one Python reading of the grammar of
docs/options.md ("Feature lists"), used by configure (the options), gen (a
dispatch source's list) and check (a library's target). The C++ reading of
the same grammar is src/runtime's; test/grammar/cases.txt runs both.

A target is `baseline`, one feature (AVX2), or a group of features compiled
as one target (a source's list says AVX512_SKX+VPCLMULQDQ or NumPy's
(AVX2 FMA3)): its name joins the members, highest interest first, with
GROUP_SEP (AVX512_SKX__VPCLMULQDQ, NumPy's spelling), and it may run only
where every member may.

Errors are ListError, whose text names the token and lists the valid names.
"""
import re

GROUP_SEP = '__'
# What separates the names of a feature list, in the build options, a
# dispatch source's target list and the environment variables alike
# (src/runtime spells the same five characters).
SEPARATORS = ' \t\r\n,'
KEYWORDS = ['MIN', 'MAX', 'NATIVE', 'NONE', 'DETECT']
OPT_NAME = {'baseline': 'cpu-baseline', 'dispatch': 'cpu-dispatch'}


class ListError(Exception):
    pass


def split_list(text):
    """The tokens of a feature list, in order."""
    return [t for t in re.split('[%s]+' % re.escape(SEPARATORS), text) if t]


# --- the build options -------------------------------------------------------
def parse_option(model, which, text, probed, max_baseline, note):
    """cpu-baseline / cpu-dispatch (which: 'baseline' / 'dispatch'): the
    requested features and all they imply, ascending interest. Tokens left
    to right; keywords; "+X" adds, "-X" removes X and all that implies it
    (for a group, also what it adds to its base and all that implies that:
    model.removes). probed: 'DETECT'/'NATIVE' -> features; note(text) says
    what was ignored."""
    names = model.names
    optname = OPT_NAME[which]
    valid_msg = ('valid names on %s: %s; keywords: %s (case-insensitive, "+NAME" adds, "-NAME" removes NAME, '
                 'what a group NAME adds to its base, and everything implying them)'
                 % (model.arch, ' '.join(names) if names else '(none)', ' '.join(KEYWORDS).lower()))
    acc, pending = [], ''
    for tok in split_list(text.upper()):
        if tok in ('+', '-'):
            if pending:
                raise ListError('%s: operator "%s" follows operator "%s"' % (optname, tok, pending))
            pending = tok
            continue
        op, pending = pending, ''
        if not op and tok[:1] in ('+', '-'):
            op, tok = tok[0], tok[1:]
        if tok == 'MIN':
            got = model.table['min']
        elif tok == 'MAX':
            got = max_baseline if which == 'baseline' else names
        elif tok == 'NONE':
            if op:
                raise ListError('%s: "%snone" makes no sense; "none" alone selects nothing' % (optname, op))
            acc = []
            continue
        elif tok in probed:
            got = probed[tok]
        elif tok in model.token:
            got = [model.token[tok]]
        elif tok in model.foreign:
            note('%s: "%s" is a feature of %s; ignored on %s' % (optname, tok, model.foreign[tok], model.arch))
            continue
        elif tok in model.retired:
            note('%s: "%s" is retired on %s (no current compiler or CPU offers it); ignored'
                 % (optname, tok, model.arch))
            continue
        else:
            raise ListError('%s: unknown CPU feature "%s" in "%s"; %s' % (optname, tok, text, valid_msg))
        if op == '-':
            drop = set()
            for n in got:
                drop |= set(model.removes[n])
            acc = [x for x in acc if x not in drop]
        else:
            acc += [n for n in got if n not in acc]
    if pending:
        raise ListError('%s: operator "%s" at the end of "%s" has no feature name' % (optname, pending, text))
    # Implied features are always added; keep interest order.
    return model.with_implied(acc)


# --- targets ------------------------------------------------------------------
def members(model, target):
    """The features of `target`, highest interest first ([] for the
    baseline); None if `target` names no feature or group of this arch."""
    if target == 'baseline':
        return []
    parts = target.split(GROUP_SEP)
    if not all(p in model.closure for p in parts):
        return None
    return parts


def reduced(model, features):
    """A group's members without those another member implies or the
    baseline has (they add nothing), highest interest first; all of them
    in the baseline: the highest alone."""
    rest = [f for f in model.names if f in features and not any(f in model.closure[g] for g in features)]
    rest = [f for f in rest if f not in model.baseline] or rest[-1:]
    return sorted(rest, key=model.index.get, reverse=True)


def group_name(model, features):
    return GROUP_SEP.join(sorted(features, key=model.index.get, reverse=True))


def needs(model, target):
    """Features code built for `target` may use beyond the baseline."""
    return frozenset(f for f in model.with_implied(members(model, target)) if f not in model.baseline)


def rank(model, target):
    """Sort key, ascending interest: by the highest member, then the next;
    a group ranks just above its highest member alone."""
    ms = members(model, target)
    if ms is None:  # not of this build: after every target
        return (len(model.names) + 1,)
    return tuple(sorted((1 + model.index[m] for m in ms), reverse=True))


def target_args(model, target):
    """What a target's library is compiled with: the merged flags of the
    baseline and the target's features (the baseline's alone for
    `baseline`), CPUD_TARGET and CPUD_TARGET_<F> for each feature."""
    if target == 'baseline':
        return model.merged_flags(set(model.baseline)) + ['-DCPUD_TARGET=baseline', '-DCPUD_TARGET_IS_BASELINE=1']
    feats = model.with_implied(members(model, target))
    flags = model.target_flags.get(target) or model.merged_flags(set(model.baseline) | set(feats))
    return flags + ['-DCPUD_TARGET=' + target] + ['-DCPUD_TARGET_%s=1' % f for f in feats]


# --- a dispatch source's list ---------------------------------------------------
# A list's tokens: a parenthesised group (NumPy's "(AVX2 FMA3)") or a run of
# anything but separators and parentheses ("AVX2", "AVX2+FMA3").
TOKEN = re.compile(r'\(([^()]*)\)|[^%s()]+|[()]' % re.escape(SEPARATORS))


def source_tokens(name, wanted):
    """(token as written, its member spellings) for each target in WANTED."""
    out = []
    for m in TOKEN.finditer(wanted):
        tok = m.group(0)
        if tok in ('(', ')'):
            raise ListError('dispatch source "%s": unbalanced "%s" in "%s"; a group of features is written '
                            'A+B or (A B)' % (name, tok, wanted))
        parts = re.split(r'[%s+]+|' % re.escape(SEPARATORS) + GROUP_SEP, m.group(1).strip(SEPARATORS)) \
            if m.group(1) is not None else \
            re.split(r'\+|' + GROUP_SEP, tok)
        if '' in parts or not parts:
            raise ListError('dispatch source "%s": empty feature name in "%s" of "%s"; a group of features is '
                            'written A+B or (A B)' % (name, tok, wanted))
        out.append((tok, parts))
    return out


def resolve_source(model, name, wanted, warn):
    """A dispatch source's list: (targets highest interest first,
    with_baseline, notes for its header); warn(text) for what the user
    should see now (a retired name)."""
    notes = []
    picked = []
    with_baseline = False
    for tok, parts in source_tokens(name, wanted):
        feats, foreign, retired = [], set(), []
        # The other arches where every member is a name (several arches may
        # share a spelling: NEON is aarch64's and arm's).
        others = None
        for part in parts:
            up = part.upper()
            if up == 'BASELINE' and len(parts) == 1:
                with_baseline = True
            elif up == 'BASELINE':
                raise ListError('dispatch source "%s": "%s" in "%s": baseline cannot be part of a group'
                                % (name, tok, wanted))
            elif up in model.token:
                feats.append(model.token[up])
            elif up in model.foreign:
                foreign |= set(model.elsewhere[up])
            elif up in model.retired:
                retired.append(part)
            else:
                valid = ' '.join(['baseline'] + model.names)
                raise ListError('dispatch source "%s": unknown target "%s" in "%s"; valid names on %s: %s'
                                % (name, part, wanted, model.arch, valid))
            if up != 'BASELINE':
                mine = set(model.elsewhere.get(up, []))
                others = mine if others is None else others & mine
        if foreign and not others:
            arches = ([model.arch] if feats else []) + sorted(foreign)
            raise ListError('dispatch source "%s": group "%s" mixes features of %s; a group is compiled once, '
                            'for one arch' % (name, tok, ' and '.join(arches)))
        if foreign:
            notes.append('%s: %s target, ignored on %s' % (tok, ' and '.join(sorted(others)), model.arch))
        elif retired:
            # As in the cpu-dispatch option and the env variables.
            notes.append('%s: retired on %s (no current compiler or CPU offers it); ignored' % (tok, model.arch))
            warn('dispatch source "%s": "%s" is retired on %s; ignored' % (name, retired[0], model.arch))
        elif feats:
            # A member another member implies, or one in the baseline, adds
            # nothing: what is left is the target (one feature: a plain one).
            target = group_name(model, reduced(model, feats))
            if len(feats) > 1 and target != group_name(model, feats):
                notes.append('%s: the same target as %s' % (tok, target))
            picked.append(target)
    if model.disabled:
        return [], True, notes + ['disable-optimization: compiled once, as baseline code']
    out = []
    for t in sorted(set(picked), key=lambda t: rank(model, t)):
        ms = members(model, t)
        if not needs(model, t):
            # The baseline build already has every instruction the target
            # would use, so the baseline build stands in for it.
            notes.append('%s: part of the baseline; the baseline build covers it' % t)
            with_baseline = True
        elif all(m in model.targets for m in ms):
            out.append(t)
        else:
            off = [m for m in ms if m not in model.targets]
            notes.append('%s: %s not enabled in this build (see the cpudispatch summary)'
                         % (t, (' and '.join(off) + (' is' if len(off) == 1 else ' are')) if len(ms) > 1
                            else 'is'))
    return list(reversed(out)), with_baseline, notes
