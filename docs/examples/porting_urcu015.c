/* SPDX-License-Identifier: MIT */
/*
 * porting_urcu015.c - a program written for liburcu 0.15, unchanged, built
 * through lfht's compatibility layer (docs/porting-from-liburcu.md): an
 * object replaced under RCU and freed once a polled grace period has
 * passed, instead of blocking in synchronize_rcu(); uatomic with memory
 * orders; urcu_posix_assert.
 */
#include <urcu.h>
#include <urcu/assert.h>
#include <urcu/uatomic.h>
#include <urcu/urcu-poll.h>

#include <stdio.h>
#include <stdlib.h>

struct config {
	int version;
};

static struct config *current;
static int published;

int main(void)
{
	struct config *old = malloc(sizeof(*old)), *new_config = malloc(sizeof(*new_config));
	unsigned long polls = 0;

	if (old == NULL || new_config == NULL)
		return 1;
	old->version = 1;
	new_config->version = 2;
	rcu_register_thread();
	rcu_assign_pointer(current, old);

	rcu_read_lock();
	urcu_posix_assert(rcu_dereference(current)->version == 1);
	rcu_read_unlock();

	rcu_assign_pointer(current, new_config);
	uatomic_store(&published, 1, CMM_RELEASE);
	struct urcu_gp_poll_state s = start_poll_synchronize_rcu();	/* no wait */
	while (!poll_state_synchronize_rcu(s))
		polls++;	/* other work here */
	free(old);	/* a grace period has passed since the start */

	printf("version %d after %s\n", rcu_dereference(current)->version,
	       polls ? "some polls" : "no poll");
	urcu_posix_assert(uatomic_load(&published, CMM_ACQUIRE) == 1);
	free(new_config);
	rcu_unregister_thread();
	return 0;
}
