// SPDX-License-Identifier: GPL-2.0
/*
 * memattr: a minimal text table. Cells are collected row by row, then
 * printed with every column as wide as its widest cell.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "memattr.h"

/**
 * table_init() - start an empty table
 * @table: the table
 * @align: one character per column, 'l' (left) or 'r' (right aligned);
 *	   its length is the number of columns. It must outlive the table.
 */
void table_init(struct table *table, const char *align)
{
	memset(table, 0, sizeof(*table));
	table->align = align;
	table->nr_cols = strlen(align);
}

/* Append one cell; rows wrap after nr_cols cells. Out of memory: "?". */
void table_add(struct table *table, const char *fmt, ...)
{
	char **cells;
	va_list ap;
	char *cell;

	if (table->nr_cells == table->capacity) {
		int capacity = table->capacity ? 2 * table->capacity : 64;

		cells = realloc(table->cells, capacity * sizeof(*cells));
		if (!cells)
			return;
		table->cells = cells;
		table->capacity = capacity;
	}
	va_start(ap, fmt);
	if (vasprintf(&cell, fmt, ap) < 0)
		cell = NULL;
	va_end(ap);
	table->cells[table->nr_cells++] = cell;
}

static const char *table_cell(const struct table *table, int row, int col)
{
	int index = row * table->nr_cols + col;

	if (index >= table->nr_cells || !table->cells[index])
		return "?";
	return table->cells[index];
}

static int table_column_width(const struct table *table, int col)
{
	int nr_rows = (table->nr_cells + table->nr_cols - 1) / table->nr_cols;
	int row, len, width = 0;

	for (row = 0; row < nr_rows; row++) {
		len = strlen(table_cell(table, row, col));
		if (len > width)
			width = len;
	}
	return width;
}

static void table_print_row(const struct table *table, int row,
			    const int *widths, FILE *out)
{
	const char *cell;
	int col, width;

	for (col = 0; col < table->nr_cols; col++) {
		cell = table_cell(table, row, col);
		width = widths[col];
		if (table->align[col] == 'r')
			fprintf(out, "%*s", width, cell);
		else if (col == table->nr_cols - 1)
			fputs(cell, out);
		else
			fprintf(out, "%-*s", width, cell);
		fputs(col == table->nr_cols - 1 ? "\n" : "  ", out);
	}
}

void table_print(const struct table *table, FILE *out)
{
	int nr_rows, row, col;
	int *widths;

	if (!table->nr_cols || !table->nr_cells)
		return;
	widths = calloc(table->nr_cols, sizeof(*widths));
	if (!widths)
		return;
	for (col = 0; col < table->nr_cols; col++)
		widths[col] = table_column_width(table, col);
	nr_rows = (table->nr_cells + table->nr_cols - 1) / table->nr_cols;
	for (row = 0; row < nr_rows; row++)
		table_print_row(table, row, widths, out);
	free(widths);
}

void table_free(struct table *table)
{
	int i;

	for (i = 0; i < table->nr_cells; i++)
		free(table->cells[i]);
	free(table->cells);
	memset(table, 0, sizeof(*table));
}
