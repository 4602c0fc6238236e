/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_svg: a self-contained SVG picture of the reports. */
#include "config.h"

#include "rpt_svg.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 1100.0
#define PANEL_HEIGHT 400.0
#define LEFT 80.0
#define RIGHT 190.0
#define TOP 46.0
#define BOTTOM 50.0
#define LANES 5      /* rows of range labels */
#define LABEL_MIN 36 /* narrower ranges are shaded but not labelled (px) */

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
#define NPALETTE (sizeof palette / sizeof palette[0])

/* The drawing area of one panel and its scales. */
struct frame {
	double x0, y0, w, h;     /* plot area, px */
	double tmin, tmax, ymax; /* seconds, MiB/s */
};

/* Print s with XML's special characters escaped. */
static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			fputc((unsigned char)*s < 0x20 ? '?' : *s, f);
		}
	}
}

/* A tick step of 1, 2 or 5 times a power of ten giving about 8 ticks over span. */
static double tick_step(double span)
{
	if (!(span > 0))
		return 1;
	double raw = span / 8, p = pow(10, floor(log10(raw))), m = raw / p;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* x of time t (s). */
static double fx(const struct frame *fr, double t)
{
	return fr->x0 + (t - fr->tmin) / (fr->tmax - fr->tmin) * fr->w;
}

/* y of rate v (MiB/s). */
static double fy(const struct frame *fr, double v)
{
	return fr->y0 + fr->h - v / fr->ymax * fr->h;
}

/* Time (s) at the middle of bucket b of result r. */
static double bucket_time(const struct rpt_result *r, size_t b)
{
	double span = (double)(r->t_hi - r->t_lo);
	return ((double)r->t_lo + span * ((double)b + 0.5) / RPT_BUCKETS) / 1e9;
}

/* The largest bucket mean of any curve of r (at least a small positive number). */
static double series_max(const struct rpt_result *r)
{
	double m = 0;
	for (size_t g = 0; g < r->ngroups; g++)
		for (size_t b = 0; b < RPT_BUCKETS; b++) {
			const struct rpt_series *s = &r->series[g];
			if (s->nval[b] == 0)
				continue;
			double rx = s->sum_rx[b] / s->nval[b], tx = s->sum_tx[b] / s->nval[b];
			m = fmax(m, fmax(rx, tx));
		}
	return m > 0 ? m : 1;
}

/* Axes, grid and tick labels of a panel. */
static void draw_axes(FILE *f, const struct frame *fr)
{
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fff\" "
		   "stroke=\"#444\"/>\n", fr->x0, fr->y0, fr->w, fr->h);
	double st = tick_step(fr->tmax - fr->tmin);
	for (double t = ceil(fr->tmin / st) * st; t <= fr->tmax + st * 1e-9; t += st) {
		double x = fx(fr, t);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n",
			x, fr->y0, x, fr->y0 + fr->h + 5, x, fr->y0 + fr->h + 18, t);
	}
	double sy = tick_step(fr->ymax);
	for (double v = 0; v <= fr->ymax * (1 + 1e-9); v += sy) {
		double y = fy(fr, v);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
			fr->x0 - 5, y, fr->x0 + fr->w, y, fr->x0 - 8, y + 4, v);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">time (s since the session "
		   "start)</text>\n", fr->x0 + fr->w / 2, fr->y0 + fr->h + 38);
	fprintf(f, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" text-anchor=\"middle\">"
		   "MiB/s</text>\n", fr->x0 - 55, fr->y0 + fr->h / 2);
}

/* A stretch of pixel columns covered by ranges of one name. */
struct run {
	size_t c0, c1; /* columns [c0, c1) of the plot area */
	uint32_t name;
};

/* qsort order of runs: by first column. */
static int compare_runs(const void *a, const void *b)
{
	size_t x = ((const struct run *)a)->c0, y = ((const struct run *)b)->c0;
	return (x > y) - (x < y);
}

/* Mark the columns that range rg covers (at least one) in cover[ncols]. */
static void cover_range(const struct frame *fr, const struct rpt_range *rg, bool *cover, size_t ncols)
{
	double a = fmax((double)rg->start / 1e9, fr->tmin), b = fmin((double)rg->end / 1e9, fr->tmax);
	if (b < a)
		return;
	size_t c0 = (size_t)fmax(0, floor(fx(fr, a) - fr->x0)), c1 = (size_t)ceil(fx(fr, b) - fr->x0);
	c0 = c0 < ncols ? c0 : ncols - 1;
	c1 = c1 > c0 ? (c1 < ncols ? c1 : ncols) : c0 + 1;
	for (size_t c = c0; c < c1; c++)
		cover[c] = true;
}

/* The runs of columns covered by each range name (ranges come sorted by name), sorted by first
 * column: so that 10^4 ranges draw as what a person can see; the count, 0 if out of memory. */
static size_t range_runs(const struct frame *fr, const struct rpt_result *r, struct run **out)
{
	size_t ncols = (size_t)ceil(fr->w), n = 0, cap = 0;
	bool *cover = malloc(ncols);
	*out = NULL;
	for (size_t i = 0; cover != NULL && i < r->ranges.nranges;) {
		uint32_t name = r->ranges.ranges[i].name;
		memset(cover, 0, ncols);
		for (; i < r->ranges.nranges && r->ranges.ranges[i].name == name; i++)
			cover_range(fr, &r->ranges.ranges[i], cover, ncols);
		for (size_t c = 0; c < ncols; c++) {
			if (!cover[c] || (c > 0 && cover[c - 1]))
				continue;
			if (n == cap) {
				struct run *p = realloc(*out, (cap = cap ? 2 * cap : 64) * sizeof *p);
				if (p == NULL)
					goto oom;
				*out = p;
			}
			size_t e = c;
			while (e < ncols && cover[e])
				e++;
			(*out)[n++] = (struct run){c, e, name};
		}
	}
	free(cover);
	if (n > 1)
		qsort(*out, n, sizeof **out, compare_runs);
	return n;
oom:
	free(cover);
	free(*out);
	*out = NULL;
	return 0;
}

/* The shaded ranges of a panel (labels false), or their labels over the curves (labels true):
 * one rectangle per stretch of columns a name covers; labels in LANES rows, each in the first
 * row free at its place. */
static void draw_ranges(FILE *f, const struct frame *fr, const struct rpt_result *r, bool labels)
{
	struct run *runs;
	size_t n = range_runs(fr, r, &runs);
	double lane_end[LANES];
	for (size_t l = 0; l < LANES; l++)
		lane_end[l] = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		double xa = fr->x0 + (double)runs[i].c0, xb = fr->x0 + (double)runs[i].c1;
		const char *color = palette[runs[i].name % NPALETTE];
		const char *name = r->ranges.names[runs[i].name];
		if (!labels) {
			fprintf(f, "<rect class=\"range\" x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\" "
				   "fill=\"%s\" fill-opacity=\"0.12\"><title>", xa, fr->y0, xb - xa, fr->h, color);
			xml_text(f, name);
			fputs("</title></rect>\n", f);
			continue;
		}
		for (size_t l = 0; l < LANES && xb - xa >= LABEL_MIN; l++) {
			if (lane_end[l] > xa)
				continue;
			fprintf(f, "<text class=\"range-label\" x=\"%.1f\" y=\"%.1f\" fill=\"%s\" "
				   "stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">", xa + 3,
				fr->y0 + 14 + 13.0 * (double)l, color);
			xml_text(f, name);
			fputs("</text>\n", f);
			lane_end[l] = xb;
			break;
		}
	}
	free(runs);
}

/* One curve: group g's rx (field 0) or tx (1) as one path. */
static void draw_curve(FILE *f, const struct frame *fr, const struct rpt_result *r, size_t g,
		       int field)
{
	const struct rpt_series *s = &r->series[g];
	fprintf(f, "<path class=\"curve\" data-group=\"");
	xml_text(f, r->groups[g].name);
	fprintf(f, "\" data-field=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s d=\"",
		field ? "tx" : "rx", palette[g % NPALETTE], field ? " stroke-dasharray=\"6 3\"" : "");
	bool pen = false, any = false;
	for (size_t b = 0; b < RPT_BUCKETS; b++) {
		if (s->nval[b] == 0) {
			pen = pen && s->nnone[b] == 0;
			continue;
		}
		double v = (field ? s->sum_tx[b] : s->sum_rx[b]) / s->nval[b];
		fprintf(f, "%s%.1f %.1f", pen ? " L" : any ? " M" : "M", fx(fr, bucket_time(r, b)), fy(fr, v));
		pen = any = true;
	}
	if (!any)
		fprintf(f, "M%.1f %.1f", fr->x0, fr->y0 + fr->h);
	fputs("\"/>\n", f);
}

/* The legend: one line per group and field. */
static void draw_legend(FILE *f, const struct frame *fr, const struct rpt_result *r)
{
	double x = fr->x0 + fr->w + 16, y = fr->y0 + 8;
	for (size_t g = 0; g < r->ngroups; g++)
		for (int field = 0; field < 2; field++, y += 18) {
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
				   "stroke-width=\"2\"%s/><text x=\"%.1f\" y=\"%.1f\">",
				x, y, x + 28, y, palette[g % NPALETTE],
				field ? " stroke-dasharray=\"6 3\"" : "", x + 34, y + 4);
			xml_text(f, r->groups[g].name);
			fprintf(f, " %s</text>\n", field ? "tx" : "rx");
		}
}

/* One report's panel at vertical offset top. */
static void draw_panel(FILE *f, const struct rpt_input *in, double top)
{
	const struct rpt_result *r = &in->res;
	struct frame fr = {LEFT, top + TOP, WIDTH - LEFT - RIGHT, PANEL_HEIGHT - TOP - BOTTOM,
		(double)r->t_lo / 1e9, (double)r->t_hi / 1e9, 0};
	if (!(fr.tmax > fr.tmin))
		fr.tmax = fr.tmin + 1;
	double ymax = series_max(r) * 1.08, step = tick_step(ymax);
	fr.ymax = ceil(ymax / step) * step;
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"14\" font-weight=\"bold\">", LEFT, top + 24);
	xml_text(f, in->name);
	if (r->host[0] != '\0') {
		fputs(" \xe2\x80\x94 ", f);
		xml_text(f, r->host);
	}
	fputs("</text>\n", f);
	draw_axes(f, &fr);
	draw_ranges(f, &fr, r, false);
	for (size_t g = 0; g < r->ngroups; g++)
		for (int field = 0; field < 2; field++)
			draw_curve(f, &fr, r, g, field);
	draw_ranges(f, &fr, r, true);
	draw_legend(f, &fr, r);
}

void rpt_svg_print(FILE *f, const struct rpt_input *in, size_t n)
{
	size_t panels = 0;
	for (size_t i = 0; i < n; i++)
		panels += in[i].ok;
	double height = PANEL_HEIGHT * (double)(panels ? panels : 1);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		   "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"11\">\n"
		   "<rect width=\"100%%\" height=\"100%%\" fill=\"#fafafa\"/>\n",
		WIDTH, height, WIDTH, height);
	double top = 0;
	for (size_t i = 0; i < n; i++)
		if (in[i].ok) {
			draw_panel(f, &in[i], top);
			top += PANEL_HEIGHT;
		}
	fputs("</svg>\n", f);
}

int rpt_svg_write(const char *path, const struct rpt_input *in, size_t n, char err[RPT_ERR_MAX])
{
	FILE *f = fopen(path, "w");
	if (f == NULL) {
		snprintf(err, RPT_ERR_MAX, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	rpt_svg_print(f, in, n);
	int bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		snprintf(err, RPT_ERR_MAX, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
