/* ak_glicko: Glicko-2 ratings (Glickman, "Example of the Glicko-2 system",
 * 2013), as pure arithmetic: no store, no clock. ak_ladder.c applies it to
 * each rated game's two players, one game as one rating period, after
 * letting the deviation grow with the time each has not played.
 */
#ifndef AK_GLICKO_H
#define AK_GLICKO_H

struct ak_glicko {
    double rating;      /* on the familiar scale: 1500 is average */
    double rd;          /* rating deviation: how unsure the rating is */
    double volatility;  /* how much the player's strength varies */
};

struct ak_glicko_params {
    double tau;         /* constrains volatility changes: 0.3 to 1.2; lichess 0.75 */
    double max_rd;      /* the deviation of a new player, and its ceiling */
};

/* One rating period: the player's new rating after games against the
 * opponents given, with scores 1 (win), 0.5 (draw) or 0 (loss). With no
 * game only the deviation grows (step 6 of the paper). */
struct ak_glicko ak_glicko_update(struct ak_glicko player, const struct ak_glicko *opponents,
                                  const double *scores, int n, const struct ak_glicko_params *p);

/* The deviation after `periods` rating periods without a game:
 * sqrt(RD^2 + sigma^2 periods), in Glicko-2 units, never above max_rd. */
double ak_glicko_idle_rd(struct ak_glicko player, double periods, const struct ak_glicko_params *p);

#endif
