/* team.c - pinned worker threads released together by a barrier. */
#include "kit/team.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "base/list.h"
#include "base/util.h"

struct worker {
	struct team *team;
	unsigned tid;
	int cpu;
	pthread_t thread;
};

struct team {
	unsigned n;
	struct worker *workers;
	pthread_barrier_t start, done;
	team_fn fn;
	void *arg;
	int stop;
};

static void *worker_main(void *p)
{
	struct worker *w = p;
	struct team *t = w->team;
	if (w->cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	for (;;) {
		pthread_barrier_wait(&t->start);
		if (t->stop)
			break;
		t->fn(w->tid, t->n, t->arg);
		pthread_barrier_wait(&t->done);
	}
	return NULL;
}

unsigned team_online_cpus(void)
{
	return list_cpus_here();
}

/* Is cpu the first thread of its core (lowest in thread_siblings_list)? */
static int first_sibling(int cpu)
{
	char path[96], *s;
	int first;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
		 cpu);
	s = read_line_str(path);
	if (!s)
		return 1;
	first = atoi(s);
	free(s);
	return first == cpu;
}

/* CPUs of the affinity mask ordered one thread per core first, then the
 * SMT siblings, so a thread sweep adds cores before it doubles up on one. */
int team_nth_cpu(unsigned i)
{
	cpu_set_t set;
	unsigned k = 0;
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -1;
	for (int pass = 0; pass < 2; pass++)
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set) && first_sibling(c) == !pass && k++ == i)
				return c;
	return -1;
}

struct team *team_start(unsigned n, const int *cpus)
{
	struct team *t;
	if (n == 0) {
		error("a team needs at least one thread");
		return NULL;
	}
	t = xcalloc(1, sizeof(*t));
	t->n = n;
	t->workers = xcalloc(n, sizeof(*t->workers));
	pthread_barrier_init(&t->start, NULL, n + 1);
	pthread_barrier_init(&t->done, NULL, n + 1);
	for (unsigned i = 0; i < n; i++) {
		struct worker *w = &t->workers[i];
		w->team = t;
		w->tid = i;
		w->cpu = cpus ? cpus[i] : team_nth_cpu(i % team_online_cpus());
		if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
			error("cannot start worker thread %u", i);
			abort();
		}
	}
	return t;
}

void team_run(struct team *t, team_fn fn, void *arg)
{
	t->fn = fn;
	t->arg = arg;
	pthread_barrier_wait(&t->start);
	pthread_barrier_wait(&t->done);
}

unsigned team_size(const struct team *t)
{
	return t->n;
}

int team_cpu(const struct team *t, unsigned tid)
{
	return tid < t->n ? t->workers[tid].cpu : -1;
}

void team_stop(struct team *t)
{
	if (!t)
		return;
	t->stop = 1;
	pthread_barrier_wait(&t->start);
	for (unsigned i = 0; i < t->n; i++)
		pthread_join(t->workers[i].thread, NULL);
	pthread_barrier_destroy(&t->start);
	pthread_barrier_destroy(&t->done);
	free(t->workers);
	free(t);
}
