/* The counts behind akd's login limits (server/ak_throttle.c, issue 27):
 * an IPv6 /64 is one address; nothing within its window is evicted, so
 * filling the table refuses newcomers instead of forgetting a lock;
 * counts end with their window; turns in a row are step apart. */
#include "ak_check.h"
#include <stdio.h>
#include <string.h>

#include "ak_server.h"

START_TEST(ipv6_64_is_one_address)
{
    char a[80], b[80], c[80], d[80];
    ak_throttle_address("2001:db8:1:2:aaaa::1", a, sizeof a);
    ak_throttle_address("2001:db8:1:2:ffff:eeee:dddd:cccc", b, sizeof b);
    ak_throttle_address("2001:db8:1:3::1", c, sizeof c);
    ak_throttle_address("::ffff:192.0.2.7", d, sizeof d);
    ck_assert_str_eq(a, b);
    ck_assert_str_ne(a, c);
    ck_assert_str_eq(a, "2001:db8:1:2::/64");
    ck_assert_str_eq(d, "192.0.2.7");
}
END_TEST

START_TEST(a_full_table_refuses_newcomers_and_forgets_nothing)
{
    char key[64];
    ak_throttle_reset();
    for (int i = 0; i < 10; i++)
        ck_assert(ak_throttle_charge("p:victim|192.0.2.1", 300, 1000));
    int refused = 0;
    for (int i = 0; i < 200000; i++) {
        snprintf(key, sizeof key, "n:made-up-%d", i);
        refused += !ak_throttle_charge(key, 300, 1000 + i / 1000);
    }
    ck_assert_int_gt(refused, 0);       /* the table filled, and said so */
    ck_assert_int_eq(ak_throttle_count("p:victim|192.0.2.1", 1199), 10);    /* the lock held */
    ck_assert_int_eq(ak_throttle_count("p:victim|192.0.2.1", 1300), 0);     /* ... for its window */
    ck_assert(ak_throttle_charge("n:after-the-window", 300, 1400));        /* expired slots are reused */
}
END_TEST

START_TEST(refund_forget_and_turns)
{
    ak_throttle_reset();
    ak_throttle_charge("a:x", 60, 10);
    ak_throttle_charge("a:x", 60, 10);
    ak_throttle_refund("a:x", 11);
    ck_assert_int_eq(ak_throttle_count("a:x", 11), 1);
    ak_throttle_forget("a:x", 12);
    ck_assert_int_eq(ak_throttle_count("a:x", 12), 0);
    ck_assert_int_eq(ak_throttle_slot("s:x", 60, 10, 10000, 1000, 30000), 0);
    ck_assert_int_eq(ak_throttle_slot("s:x", 60, 10, 10000, 1000, 30000), 1000);
    ck_assert_int_eq(ak_throttle_slot("s:x", 60, 10, 10500, 1000, 30000), 1500);
    ck_assert_int_eq(ak_throttle_slot("s:x", 60, 13, 13000, 1000, 30000), 0);
    /* refusals take no turn: a flood of them pushes nothing back */
    for (int i = 0; i < 40; i++)
        ak_throttle_slot("s:y", 60, 20, 20000, 1000, 30000);
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(ak_throttle_slot("s:y", 60, 20, 20000, 1000, 30000), -1);
    ck_assert_int_eq(ak_throttle_slot("s:y", 60, 52, 52000, 1000, 30000), 0);  /* the turns ran out by then */
}
END_TEST

AK_CHECK_MAIN("throttle", ipv6_64_is_one_address, a_full_table_refuses_newcomers_and_forgets_nothing,
              refund_forget_and_turns)
