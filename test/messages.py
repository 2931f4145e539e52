"""The run-time messages the test drivers expect, in one place: the
start-up check's refusal (docs/runtime.md, "Start-up check") and the
default variable prefix of a project (docs/options.md, env-prefix).

  refusal(project, version='', library=False) -> compiled pattern
      "cpudispatch: PROJECT VERSION in this program was built for ARCH CPUs
      with BASELINE (its baseline), but this CPU lacks MISSING. ..." (a
      library inside another process: "PROJECT VERSION, a library in this
      process, was built for ..."); groups: arch, baseline, missing.
      project None: any project's.
  env_prefix(project) -> the variables' default prefix for that project
"""
import re


def refusal(project=None, version='', library=False):
    who = r'\S+(?: \S+)?' if project is None else re.escape(project + (' ' + version if version else ''))
    subject = who + (r', a library in this process,' if library else r' in this program')
    return re.compile(r'^cpudispatch: %s was built for (\S+) CPUs with (.*) \(its baseline\), but this CPU lacks '
                      r'(.*?)\. Run it on a CPU that has them, or use a build of \S+ for older CPUs\. '
                      r'\w+_SKIP_CPU_BASELINE_CHECK=1 skips this check' % subject, re.M)


def env_prefix(project):
    """src/build_side/cpudispatch_project.py's rule: upper case, every run of other
    characters one _, none at the ends."""
    s = re.sub(r'[^A-Za-z0-9]+', '_', project).strip('_').upper()
    return ('P' + s if s[:1].isdigit() else s)[:40].rstrip('_') or 'CPUDISPATCH'
