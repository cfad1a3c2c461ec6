"""`learnmem clusters|members|values|value ...`: learning from experience, each one library call plus formatting.

Like app.py, this imports only the standard library at import time.
"""

from __future__ import annotations

from learnmem.cli import output
import argparse
from collections.abc import Callable



def cmd_clusters(args: argparse.Namespace) -> None:
    """Cluster the experiences of an axis now and list the clusters."""
    run = output.open_learnmem(args).get_clusters(args.axis)
    if args.json:
        output.emit_json(output.as_json(run))
        return
    cold = f"; {run.cold_count} cold ones left out" if run.cold_count else ""
    print(f"{run.count} clusters of {run.experience_count} experiences on axis {run.axis} "
          f"({run.noise_count} fit none{cold})")
    for cluster in run.clusters:
        print(f"  {cluster.cluster_id:<16} {cluster.size:>5}  weight {cluster.avg_weight:.2f}  {cluster.label}")
    for value_id in run.dissolved_values:
        print(f"  warning: the cluster of value {value_id} dissolved (the value is kept, flagged)")


def cmd_members(args: argparse.Namespace) -> None:
    """List the experiences of a cluster, most central first."""
    members = output.open_learnmem(args, read_only=True).get_cluster_members(args.cluster_id, limit=args.limit)
    if args.json:
        output.emit_json(output.as_json(members))
        return
    for member in members:
        print(f"{member.score:.3f}  {member.ghap_id}  {member.outcome_status} ({member.confidence_tier})  "
              f"{output.one_line(member.goal, 60)}")
        detail = member.surprise or member.outcome_result
        print(f"       {output.one_line(detail, 100)}")


def cmd_values(args: argparse.Namespace) -> None:
    """List stored values, or search them with --search."""
    lm = output.open_learnmem(args, read_only=True)
    if args.search is not None:
        values = lm.search_values(args.search, axis=args.axis, limit=min(args.limit, 50))
    else:
        values = lm.list_values(axis=args.axis, limit=args.limit)
    if args.json:
        output.emit_json(output.as_json(values))
        return
    for value in values:
        state = " (cluster dissolved)" if value.dissolved_at else ""
        print(f"{value.id}  {value.cluster_id} ({value.cluster_size}){state}  {output.one_line(value.text, 90)}")
    if not values:
        print("(no values: read a cluster with `learnmem members`, then `learnmem value store`)")


def cmd_value(args: argparse.Namespace) -> None:
    """Validate or store a value for a cluster."""
    lm = output.open_learnmem(args)
    if args.value_command == "validate":
        check = lm.validate_value(args.text, args.cluster_id)
        if args.json:
            output.emit_json(output.as_json(check))
        else:
            print(f"{'valid' if check.valid else 'invalid'}: {check.reason}")
        if not check.valid:
            raise SystemExit(1)
        return
    from learnmem.vocabulary import cluster_axis  # names the bad part of a malformed id

    stored = lm.store_value(args.text, args.cluster_id, args.axis or cluster_axis(args.cluster_id))
    if args.json:
        output.emit_json(output.as_json(stored))
    else:
        print(f"Stored {stored.id} for {stored.cluster_id} ({stored.cluster_size} experiences, "
              f"similarity {stored.similarity_to_centroid:.3f})")


COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], None], str]] = {
    "clusters": (cmd_clusters, "cluster the experiences of an axis now and list the clusters"),
    "members": (cmd_members, "list the experiences of a cluster, most central first"),
    "values": (cmd_values, "list stored values (or search them with --search)"),
    "value": (cmd_value, "validate or store a value for a cluster"),
}


def add_arguments(commands: dict[str, argparse.ArgumentParser], common: argparse.ArgumentParser,
                  parser_class) -> None:
    """The arguments of the learning commands (their parsers are made by app.build_parser)."""
    commands["clusters"].add_argument("axis", metavar="AXIS", help="full, strategy, surprise or root_cause")
    members = commands["members"]
    members.add_argument("cluster_id", metavar="CLUSTER_ID", help="e.g. surprise-3 (from `learnmem clusters`)")
    members.add_argument("--limit", "-n", type=int, default=50, metavar="N", help="at most N experiences (default: 50)")
    values = commands["values"]
    values.add_argument("--axis", metavar="A", help="only values of this axis")
    values.add_argument("--search", metavar="QUERY", help="the values matching QUERY, best first")
    values.add_argument("--limit", "-n", type=int, default=20, metavar="N", help="at most N values (default: 20)")
    sub = commands["value"].add_subparsers(dest="value_command", metavar="VALUE_COMMAND", required=True,
                                           parser_class=parser_class)
    for name, help_text in (("validate", "check a candidate value against a cluster (exit 1 when invalid)"),
                            ("store", "validate a value again and store it (refused when invalid)")):
        command = sub.add_parser(name, help=help_text, description=f"{help_text[0].upper()}{help_text[1:]}.",
                                 parents=[common])
        command.add_argument("cluster_id", metavar="CLUSTER_ID", help="e.g. surprise-3")
        command.add_argument("text", metavar="TEXT", help="the value: one sentence stating what the cluster teaches")
        if name == "store":
            command.add_argument("--axis", metavar="A", help="the cluster's axis (default: read from CLUSTER_ID)")
