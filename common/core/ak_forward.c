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
 * the ones that are not moves first, and every abandon besides (the
 * rules' way out of an attack owed that no battle can make). So the opening's overstacked squares
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
 * Resignation is no way forward and is never tried. The way found is
 * kept whole (ak_way_forward_path), for a computer player to follow step
 * by step. The state is never
 * touched; the copies live in a work area allocated once (not reentrant,
 * like the engine's other work areas).
 */
#include "ak_query.h"

#include <stdlib.h>
#include <string.h>

#include "ak_engine.h"

#define FORWARD_DEPTH 32        /* levels: a combat portion's battles and decisions */
#define FORWARD_BREADTH 4       /* progressing actions followed from one state */
#define FORWARD_OTHER 1024      /* actions other than moves in one state */

static struct {
    struct ak_state state[FORWARD_DEPTH + 1];
    struct ak_action *other[FORWARD_DEPTH], *moves[FORWARD_DEPTH];
    struct ak_reject why[FORWARD_DEPTH + 1];
    int budget;
    struct ak_action first;     /* the first action of the way found */
    struct ak_action path[FORWARD_DEPTH];   /* the whole way found (its ending action apart) */
    int path_len;
} fw;

static bool work_area(void)
{
    for (int d = 0; d < FORWARD_DEPTH; d++) {
        if (!fw.other[d] && !(fw.other[d] = malloc(sizeof(struct ak_action) * FORWARD_OTHER)))
            return false;
        if (!fw.moves[d] && !(fw.moves[d] = malloc(sizeof(struct ak_action) * AK_HEX_COUNT)))
            return false;
    }
    return true;
}

static bool finished(const struct ak_state *from, const struct ak_state *s)
{
    return s->phase == AK_PHASE_OVER || s->turn != from->turn || s->side != from->side ||
           s->phase != from->phase;
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

/* Try a, from s at depth: 1 an ending reached, 0 none, -1 the budget ran out. */
static int search(const struct ak_state *from, const struct ak_state *s, int depth);

static int follow(const struct ak_state *from, const struct ak_state *s, int depth,
                  const struct ak_action *a, int *followed)
{
    if (a->kind == AK_ACT_RESIGN || a->kind == ak_ending_action(s))
        return 0;
    if (fw.budget-- <= 0)
        return -1;
    struct ak_state *next = &fw.state[depth];
    *next = *s;
    if (!ak_apply(next, a, NULL, NULL))
        return 0;
    int r = 1;
    if (!finished(from, next) && !ends_now(from, next, &fw.state[depth + 1], &fw.why[depth + 1])) {
        if (!progress(s, next, &fw.why[depth], &fw.why[depth + 1]))
            return 0;
        ++*followed;
        r = search(from, next, depth + 1);
    } else {
        fw.path_len = depth + 1;        /* the deepest level of the way: it ends here */
    }
    if (r > 0)
        fw.path[depth] = *a;
    if (r > 0 && depth == 0)
        fw.first = *a;
    return r;
}

/* s's refusal is fw.why[depth]. The actions that are not moves first,
 * then each unit's moves (listed unit by unit: a late game of the Updated
 * ruleset has more moves than one list would hold). */
static int search(const struct ak_state *from, const struct ak_state *s, int depth)
{
    if (depth >= FORWARD_DEPTH)
        return 0;
    int followed = 0, r = 0;
    int n = ak_legal_actions(s, 0, fw.other[depth], FORWARD_OTHER);
    /* a unit removed is the rules' own way out of an attack it owes and
     * cannot make (ATTACKING 6): always followed, however many battles
     * were listed before it (one per owing unit at most) */
    for (int i = 0; i < n && r == 0; i++)
        if (followed < FORWARD_BREADTH || fw.other[depth][i].kind == AK_ACT_ABANDON)
            r = follow(from, s, depth, &fw.other[depth][i], &followed);
    bool moves = ak_possible_actions(s) & (1u << AK_ACT_MOVE);
    for (int u = 0; moves && u < s->units && followed < FORWARD_BREADTH && r == 0; u++) {
        if (ak_def(u)->side != s->side || !ak_on_board(s, u))
            continue;
        int k = ak_legal_moves(s, u, fw.moves[depth], AK_HEX_COUNT);
        for (int i = 0; i < k && followed < FORWARD_BREADTH && r == 0; i++)
            r = follow(from, s, depth, &fw.moves[depth][i], &followed);
    }
    return r;
}

enum ak_forward ak_way_forward(const struct ak_state *s, int budget)
{
    return ak_way_forward_first(s, budget, NULL);
}

int ak_way_forward_path(const struct ak_state *s, int budget, struct ak_action *path, int max)
{
    struct ak_action first;
    if (ak_way_forward_first(s, budget, &first) != AK_FORWARD_FOUND)
        return -1;
    int n = 0;
    for (int i = 0; i < fw.path_len && n < max; i++)
        path[n++] = fw.path[i];
    if (n == 0 && max > 0)      /* it ends now: the ending action */
        path[n++] = first;
    return n;
}

enum ak_forward ak_way_forward_first(const struct ak_state *s, int budget, struct ak_action *first)
{
    if (s->phase == AK_PHASE_OVER)
        return first ? AK_FORWARD_DEAD_END : AK_FORWARD_FOUND;     /* no action to give */
    if (!work_area())
        return AK_FORWARD_UNKNOWN;
    fw.budget = budget;
    fw.path_len = 0;
    struct ak_action end = {.kind = (uint8_t)ak_ending_action(s), .side = (uint8_t)ak_waiting_for(s),
                            .hex = AK_HEX_NONE, .supply = AK_UNIT_NONE};
    fw.first = end;
    int r = ends_now(s, s, &fw.state[0], &fw.why[0]) ? 1 : search(s, s, 0);
    if (r > 0 && first)
        *first = fw.first;
    return r > 0 ? AK_FORWARD_FOUND : r == 0 ? AK_FORWARD_DEAD_END : AK_FORWARD_UNKNOWN;
}
