/* ak_commit: the build's commit beside its version (ak_version.h, from
 * meson.build, the one place a version is written; scripts/release bumps
 * it with the man pages and debian/changelog). */
#ifndef AK_COMMIT_H
#define AK_COMMIT_H

/* "v0.3.0-4-g1a2b3c4" or "1a2b3c4", "-dirty" when built from changed
 * files; "" when not built from a git checkout. */
extern const char ak_commit[];

#endif
