/*
 * plan_json: `matrix plan --json`, a plan's cells as one JSON document
 * (base/jsonout.h; README "JSON export" has the fields): the matrix's name
 * and description, its dimensions, the repetitions, and per cell what the
 * text of `matrix plan` prints on its line (sizes in bytes, a duration in
 * seconds, null for a `-` there) with its parameters as results.csv will
 * write them, so a plan's cells join a run's by number or by params.
 */
#ifndef MATRIX_PLAN_JSON_H
#define MATRIX_PLAN_JSON_H

#include <stdio.h>

#include "plan.h"

#define PLAN_JSON_SCHEMA 1

/* Writes the document to f; 0, or -1 when memory runs out or f fails
 * (errno set when it is f). */
int plan_json_print(const struct plan *pl, FILE *f);

#endif
