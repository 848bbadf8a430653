/* The pattern table: see pattern.h. */
#include "pattern.h"

#include <stdio.h>
#include <string.h>

/* The round trips' metrics: what pingpong's and echo's tables show. */
#define RR_TABLE_METRICS { "msgs_per_s", "mib_per_s", "rtt_mean_us", "rtt_p50_us", \
			   "rtt_p99_us", "cpu_us_per_rtt", NULL }

static const struct pattern_info table[PAT__COUNT] = {
	[PAT_PINGPONG] = {
		.id = PAT_PINGPONG, .name = "pingpong", .reply = PATTERN_REPLY_SIZED,
		.timer = "client", .sent = "requests", .rate_metric = "msgs_per_s",
		.windowed = 1, .needs = PATTERN_NEEDS_REPLIES, .files = PATTERN_FILE_HIST,
		.table_metrics = RR_TABLE_METRICS,
	},
	[PAT_ECHO] = {
		.id = PAT_ECHO, .name = "echo", .reply = PATTERN_REPLY_REQUEST,
		.timer = "client", .sent = "requests", .rate_metric = "msgs_per_s",
		.windowed = 1, .needs = PATTERN_NEEDS_REPLIES, .files = PATTERN_FILE_HIST,
		.table_metrics = RR_TABLE_METRICS,
	},
	[PAT_STREAM] = {
		.id = PAT_STREAM, .name = "stream", .reply = PATTERN_REPLY_NONE,
		.one_way = 1, .receiver_times = 1,
		.timer = "receiver", .sent = "messages", .rate_metric = "sent_msgs_per_s",
		.needs = PATTERN_NEEDS_ONE_WAY, .files = PATTERN_FILE_TIMELINE,
		.table_metrics = { "msgs_per_s", "mib_per_s", "sent_msgs_per_s", "cpu_us_per_msg",
				   NULL },
	},
	[PAT_PIPELINE] = {
		.id = PAT_PIPELINE, .name = "pipeline", .reply = PATTERN_REPLY_REQUEST,
		.timer = "client", .sent = "requests", .rate_metric = "msgs_per_s",
		.needs = PATTERN_NEEDS_REPLIES | PATTERN_NEEDS_DUPLEX,
		.table_metrics = { "msgs_per_s", "mib_per_s", "cpu_us_per_rtt", NULL },
	},
};

const struct pattern_info *pattern_info(enum pattern p)
{
	return &table[p];
}

const struct pattern_info *pattern_find(const char *name)
{
	for (size_t i = 0; i < PAT__COUNT; i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

uint64_t pattern_reply_size(const struct pattern_info *pi, uint64_t size, uint64_t response_size)
{
	switch (pi->reply) {
	case PATTERN_REPLY_REQUEST:
		return size;
	case PATTERN_REPLY_SIZED:
		return response_size;
	case PATTERN_REPLY_NONE:
		break;
	}
	return 0;
}

int pattern_named_one_way(const char *name)
{
	const struct pattern_info *pi = pattern_find(name);

	return pi && pi->one_way;
}

int pattern_named_untimed(const char *name)
{
	const struct pattern_info *pi = pattern_find(name);

	return pi && !(pi->files & PATTERN_FILE_HIST);
}

void pattern_list_windowed(char *buf, size_t len)
{
	size_t n = 0, k = 0, o = 0;

	for (size_t i = 0; i < PAT__COUNT; i++)
		n += table[i].windowed;
	buf[0] = '\0';
	for (size_t i = 0; i < PAT__COUNT && o < len; i++)
		if (table[i].windowed) {
			k++;
			o += (size_t)snprintf(buf + o, len - o, "%s%s", k == 1 ? "" : k == n ? " and "
					      : ", ", table[i].name);
		}
}
