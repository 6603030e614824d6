/* ak_check: the one main() every Check test program shares. Each test file
 * lists its tests; this runs them as one suite and turns the result into
 * the exit status meson reads. Check's own 4-second limit per test is
 * lifted to a minute: under the sanitizers, on a busy machine, the longer
 * tests (routes, fuzz) need more; meson keeps its own time-out. */
#ifndef AK_CHECK_H
#define AK_CHECK_H

#include <check.h>
#include <stdlib.h>

#define AK_CHECK_MAIN(name, ...)                                              \
    int main(void)                                                            \
    {                                                                         \
        const TTest *tests[] = {__VA_ARGS__};                                 \
        Suite *s = suite_create(name);                                        \
        TCase *t = tcase_create(name);                                        \
        tcase_set_timeout(t, 60);                                             \
        for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)           \
            tcase_add_test(t, tests[i]);                                      \
        suite_add_tcase(s, t);                                                \
        SRunner *r = srunner_create(s);                                       \
        srunner_run_all(r, CK_NORMAL);                                        \
        int failed = srunner_ntests_failed(r);                                \
        srunner_free(r);                                                      \
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;                          \
    }

#endif
