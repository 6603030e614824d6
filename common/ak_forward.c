/* ak_forward: whether the player the game waits for still has a way to
 * finish what he must finish (issue 34, "no dead ends").
 *
 * A part of the turn is finished when the game leaves it: the turn, the
 * side to move or the phase changes, or the game is over. From the state
 * given, a depth-first search over the waiting player's legal actions
 * (ak_legal_actions, so only actions the engine accepts) looks for such an
 * ending. In every state it tries the ending action first
 * (ak_ending_action); refused, the refusal is the state's "reason", and
 * the search follows only the actions that make progress: that change the
 * reason (a stack of eight made a stack of seven, a supply unit that now
 * sustains an attack), the battles declared (one fought or called off) or
 * the decision awaited (every answer to an owed decision counts). An action that changes none of
 * these is not followed (a move elsewhere on the board: there are
 * hundreds). At most FORWARD_BREADTH actions are followed from each state,
 * the ones that are not moves first. So the opening's overstacked squares
 * are undone a move at a time, and a combat portion's chain of battles and
 * decisions is followed as deep as it goes, at the cost of a legal-action
 * list per level.
 *
 * What it can miss: a way that needs an action which makes no progress
 * first (a unit moved out of another's way, then the other), or more than
 * FORWARD_BREADTH tries at one level. The self-play and fuzz checks report
 * such a miss as a dead end, to be looked at (docs/rules-notes.md, "No
 * dead ends"). When its budget of
 * applied actions runs out it answers AK_FORWARD_UNKNOWN, reported apart.
 * Resignation is no way forward and is never tried. The state is never
 * touched; the copies live in a work area allocated once (not reentrant,
 * like the engine's other work areas).
 */
#include "ak_query.h"

#include <stdlib.h>
#include <string.h>

#include "ak_engine.h"

#define FORWARD_DEPTH 32        /* levels: a combat portion's battles and decisions */
#define FORWARD_BREADTH 4       /* progressing actions followed from one state */
#define FORWARD_LIST 4096

static struct {
    struct ak_state state[FORWARD_DEPTH + 1];
    struct ak_action *list[FORWARD_DEPTH];
    struct ak_reject why[FORWARD_DEPTH + 1];
    int budget;
} fw;

static bool work_area(void)
{
    for (int d = 0; d < FORWARD_DEPTH; d++)
        if (!fw.list[d] && !(fw.list[d] = malloc(sizeof(struct ak_action) * FORWARD_LIST)))
            return false;
    return true;
}

static bool finished(const struct ak_state *from, const struct ak_state *s)
{
    return s->phase == AK_PHASE_OVER || s->turn != from->turn || s->side != from->side ||
           s->phase != from->phase;
}

/* Non-moves before moves. */
static void order(struct ak_action *l, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (l[i].kind != AK_ACT_MOVE) {
            struct ak_action t = l[k];
            l[k++] = l[i];
            l[i] = t;
        }
}

/* The ending action of the part of the turn, tried on a copy; refused,
 * *why says why. */
static bool ends_now(const struct ak_state *from, const struct ak_state *s, struct ak_state *work,
                     struct ak_reject *why)
{
    struct ak_action end = {.kind = (uint8_t)ak_ending_action(s), .side = (uint8_t)ak_waiting_for(s),
                            .hex = AK_HEX_NONE, .supply = AK_UNIT_NONE};
    fw.budget--;
    *work = *s;
    memset(why, 0, sizeof *why);
    return ak_apply(work, &end, NULL, why) && finished(from, work);
}

/* The action changed the reason the part cannot end, or the battles
 * declared, or the decision awaited, or answered one (every answer is
 * progress: a retreat of several units is answered unit by unit, the
 * decision owed the same each time). */
static bool progress(const struct ak_state *s, const struct ak_state *next, const struct ak_reject *was,
                     const struct ak_reject *now)
{
    bool same = was->code && now->code && strcmp(was->code, now->code) == 0 && strcmp(was->text, now->text) == 0;
    return !same || s->pending.kind || s->nbattles != next->nbattles ||
           memcmp(&s->pending, &next->pending, sizeof s->pending) != 0;
}

/* 1 found, 0 none, -1 the budget ran out. s's refusal is fw.why[depth]. */
static int search(const struct ak_state *from, const struct ak_state *s, int depth)
{
    if (depth >= FORWARD_DEPTH)
        return 0;
    int n = ak_legal_actions(s, AK_LIST_MOVES, fw.list[depth], FORWARD_LIST), followed = 0;
    order(fw.list[depth], n);
    for (int i = 0; i < n && followed < FORWARD_BREADTH; i++) {
        const struct ak_action *a = &fw.list[depth][i];
        if (a->kind == AK_ACT_RESIGN || a->kind == ak_ending_action(s))
            continue;
        if (fw.budget-- <= 0)
            return -1;
        struct ak_state *next = &fw.state[depth];
        *next = *s;
        if (!ak_apply(next, a, NULL, NULL))
            continue;
        if (finished(from, next) || ends_now(from, next, &fw.state[depth + 1], &fw.why[depth + 1]))
            return 1;
        if (!progress(s, next, &fw.why[depth], &fw.why[depth + 1]))
            continue;
        followed++;
        int r = search(from, next, depth + 1);
        if (r != 0)
            return r;
    }
    return 0;
}

enum ak_forward ak_way_forward(const struct ak_state *s, int budget)
{
    if (s->phase == AK_PHASE_OVER)
        return AK_FORWARD_FOUND;
    if (!work_area())
        return AK_FORWARD_UNKNOWN;
    fw.budget = budget;
    if (ends_now(s, s, &fw.state[0], &fw.why[0]))
        return AK_FORWARD_FOUND;
    int r = search(s, s, 0);
    return r > 0 ? AK_FORWARD_FOUND : r == 0 ? AK_FORWARD_DEAD_END : AK_FORWARD_UNKNOWN;
}
