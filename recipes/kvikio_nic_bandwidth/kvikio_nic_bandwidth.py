# SPDX-License-Identifier: Apache-2.0
"""kvikio_nic_bandwidth: an `nsys recipe` over many reports of the kvikio_nic plugin.

Per report (node) and counter group: bytes moved, mean, p50, p95, max MiB/s; with --ranges, the
same per NVTX range name; a heat map of bandwidth over time per node and interface. The numbers
are kvikio_nic_report's (same definitions and column names); the math lives in kn_bandwidth,
beside this file, which needs no nsys. Run it with the recipe directory on NSYS_RECIPE_PATH:

    NSYS_RECIPE_PATH=$(pkg-config --variable=nsys_recipe_path kvikio-nic) \
        nsys recipe kvikio_nic_bandwidth --input DIR [--ranges [REGEX]] [--mode dask-futures]

Outputs (in the recipe's output folder): summary.parquet and, with --ranges, ranges.parquet (a
row per report and group, then the cluster's rows with report "(sum)": kvikio_nic_report --sum),
heatmap.parquet, files.parquet, the notebook heatmap.ipynb; with --csv also CSV copies.
"""

import argparse
import importlib.util
import os
import re
import sys
from datetime import datetime
from pathlib import Path

import pandas as pd

from nsys_recipe import log
from nsys_recipe.data_service import DataService
from nsys_recipe.lib import exceptions, heatmap, helpers, recipe
from nsys_recipe.lib.args import Option
from nsys_recipe.lib.collective_loader import ProfileInfo
from nsys_recipe.log import logger



def _load_math():
    """Load kn_bandwidth.py from beside this file, by path.

    Not through sys.path: the framework imports this module as kvikio_nic_bandwidth.<module>,
    and Dask workers (which inherit sys.path) find it again by that name; this folder on sys.path
    would make 'kvikio_nic_bandwidth' resolve to this file instead of the recipe's folder.
    """
    name = "kvikio_nic_bandwidth.kn_bandwidth"
    if name not in sys.modules:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kn_bandwidth.py")
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


knb = _load_math()

FIRST_TABLES = {
    "NVTX_COUNTER_GROUPS": ["domainId", "counterGroupId", "schemaId", "name"],
    "NVTX_PAYLOAD_SCHEMAS": ["domainId", "schemaId", "name"],
    "NVTX_EVENTS": ["start", "end", "eventType", "text", "textId", "domainId"],
    "ENUM_NSYS_EVENT_TYPE": ["id", "name"],
    "StringIds": ["id", "value"],
    "TARGET_INFO_SYSTEM_ENV": ["name", "value"],
}
SAMPLE_COLUMNS = ["timestamp", "rx", "tx"]


def _regex(value):
    """argparse type of --ranges: a Python regular expression matched against the whole name."""
    try:
        re.compile(value)
    except re.error as e:
        raise argparse.ArgumentTypeError(f"invalid regex '{value}': {e}") from e
    return value


class KvikioNicBandwidth(recipe.Recipe):
    """The recipe: one mapper per report, one reducer writing the combined tables."""

    @staticmethod
    def _mapper_func(report_path, max_duration, session_offset, bin_list, parsed_args):
        """Read one report's tables and compute its summary, range and heat map rows."""
        service = DataService(report_path, parsed_args)
        for table, columns in FIRST_TABLES.items():
            service.queue_table(table, columns)
        tables = service.read_queued_tables()
        if tables is None:
            return None
        ids = knb.event_type_ids(tables["ENUM_NSYS_EVENT_TYPE"])
        domains = knb.kvikio_domains(tables["NVTX_EVENTS"], ids, tables["StringIds"])
        groups = knb.select_groups(tables["NVTX_COUNTER_GROUPS"], tables["NVTX_PAYLOAD_SCHEMAS"], domains)
        if groups.empty:
            logger.warning(f"{report_path}: no '{knb.DOMAIN_NAME}' counter groups (was the report "
                           "recorded with --enable=kvikio_nic?); skipped.")
            return None
        names = [knb.samples_table_name(g.domainId, g.counterGroupId) for g in groups.itertuples(index=False)]
        tables.update(KvikioNicBandwidth._read_samples(service, names, report_path))
        pattern = getattr(parsed_args, "ranges", None)
        name = Path(report_path).name
        summary, ranges, heat = knb.analyze_tables(name, tables, pattern, bin_list, session_offset)
        return name, summary, ranges, heat

    @staticmethod
    def _read_samples(service, names, report_path):
        """The groups' samples tables; one that cannot be read (a group never sampled) is left
        out, so that its group reads as one without samples instead of losing the report."""
        for name in names:
            service.queue_table(name, SAMPLE_COLUMNS)
        tables = service.read_queued_tables()
        if tables is not None:
            return tables
        tables = {}
        for name in names:
            service.clear_queued_tables()  # a failed read leaves its requests queued
            service.queue_table(name, SAMPLE_COLUMNS)
            one = service.read_queued_tables()
            if one is None:
                logger.warning(f"{report_path}: no {name}: its group counts as one without samples.")
            else:
                tables.update(one)
        return tables

    @log.time("Mapper")
    def mapper_func(self, context, profile_info):
        """Run the mapper over every report, in the context's mode."""
        report_paths, max_durations, session_offsets = profile_info
        bin_size = heatmap.get_bin_size(self._parsed_args.bins, max(max_durations))
        bin_list = heatmap.generate_bin_list(self._parsed_args.bins, bin_size, include_last=True)
        return context.wait(
            context.map(
                self._mapper_func,
                report_paths,
                max_durations,
                session_offsets,
                bin_list=bin_list,
                parsed_args=self._parsed_args,
            )
        )

    def _write(self, df, stem):
        """Write one output table as Parquet (and CSV with --csv)."""
        df.to_parquet(self.add_output_file(f"{stem}.parquet"))
        if self.get_parsed_arg("csv", False):
            df.to_csv(self.add_output_file(f"{stem}.csv"), index=False)

    @log.time("Reducer")
    def reducer_func(self, mapper_res):
        """Combine the reports' rows (sorted by report name), add the (sum) rows, write the tables."""
        results = sorted(helpers.filter_none(mapper_res), key=lambda r: r[0])
        if not results:
            logger.error("No report holds kvikio_nic counter groups: nothing to write.")
            raise exceptions.NoDataError
        names = [r[0] for r in results]
        self._write(pd.DataFrame({"File": names}).rename_axis("Rank").reset_index(), "files")
        summary = pd.concat([r[1] for r in results], ignore_index=True)
        self._write(pd.concat([summary, knb.summary_sums(summary)], ignore_index=True), "summary")
        if self.get_parsed_arg("ranges") is not None:
            ranges = pd.concat([r[2] for r in results], ignore_index=True)
            self._write(pd.concat([ranges, knb.range_sums(ranges)], ignore_index=True), "ranges")
        heat = [r[3].assign(Rank=rank) for rank, r in enumerate(results)]
        self._write(pd.concat(heat, ignore_index=True), "heatmap")

    def save_notebook(self):
        """The notebook: tables and heat maps of the outputs."""
        self.create_notebook("heatmap.ipynb", replace_dict={"REPLACE_BIN": self._parsed_args.bins})
        self.add_notebook_helper_file("nsys_display.py")

    def save_analysis_file(self):
        """The .nsys-analysis file that nsys-ui opens."""
        self._analysis_dict.update({"EndTime": str(datetime.now()), "Outputs": self._output_files})
        self.create_analysis_file()

    def run(self, context):
        """Map, reduce, write the notebook and the analysis file."""
        super().run(context)
        profile_info = ProfileInfo.get_profile_info(context, self._parsed_args)
        mapper_res = self.mapper_func(context, profile_info)
        self.reducer_func(mapper_res)
        self.save_notebook()
        self.save_analysis_file()

    @classmethod
    def get_argument_parser(cls):
        """The recipe's options: the framework's input, bins, alignment and CSV, plus --ranges."""
        parser = super().get_argument_parser()
        parser.add_recipe_argument(Option.INPUT, required=True)
        parser.add_recipe_argument(Option.BINS)
        parser.add_recipe_argument(Option.DISABLE_ALIGNMENT)
        parser.add_recipe_argument(Option.CSV)
        parser.add_recipe_argument(
            "--ranges",
            metavar="REGEX",
            nargs="?",
            const=".*",
            type=_regex,
            help="Also sum per NVTX range name: the push/pop and start/end ranges that ended"
            " and whose whole name REGEX (a Python regular expression) matches; without REGEX,"
            " every range. Output: ranges.parquet.",
        )
        return parser
