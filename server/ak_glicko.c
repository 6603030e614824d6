/* ak_glicko: Glicko-2, step by step as the paper numbers them. */
#include "ak_glicko.h"

#include <math.h>

#define SCALE 173.7178      /* 400 / ln 10: the Glicko-2 scale */
#define EPSILON 0.000001    /* the paper's convergence tolerance */

static double g_of(double phi)
{
    return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (M_PI * M_PI));
}

static double expected(double mu, double mu_j, double phi_j)
{
    return 1.0 / (1.0 + exp(-g_of(phi_j) * (mu - mu_j)));
}

/* Step 5: the new volatility, by the Illinois algorithm. */
static double new_volatility(double phi, double sigma, double delta, double v, double tau)
{
    double a = log(sigma * sigma);
#define F(x) (exp(x) * (delta * delta - phi * phi - v - exp(x)) / \
              (2.0 * pow(phi * phi + v + exp(x), 2)) - ((x) - a) / (tau * tau))
    double A = a, B;
    if (delta * delta > phi * phi + v) {
        B = log(delta * delta - phi * phi - v);
    } else {
        int k = 1;
        while (F(a - k * tau) < 0 && k < 1000)
            k++;
        B = a - k * tau;
    }
    double fA = F(A), fB = F(B);
    for (int i = 0; fabs(B - A) > EPSILON && i < 1000; i++) {
        double C = A + (A - B) * fA / (fB - fA);
        double fC = F(C);
        if (fC * fB <= 0) {
            A = B;
            fA = fB;
        } else {
            fA /= 2;
        }
        B = C;
        fB = fC;
    }
#undef F
    return exp(A / 2);
}

double ak_glicko_idle_rd(struct ak_glicko player, double periods, const struct ak_glicko_params *p)
{
    double phi = player.rd / SCALE;
    double grown = sqrt(phi * phi + player.volatility * player.volatility * (periods > 0 ? periods : 0)) * SCALE;
    return grown < p->max_rd ? grown : p->max_rd;
}

struct ak_glicko ak_glicko_update(struct ak_glicko player, const struct ak_glicko *opponents,
                                  const double *scores, int n, const struct ak_glicko_params *p)
{
    /* Step 2: to the Glicko-2 scale. */
    double mu = (player.rating - 1500.0) / SCALE, phi = player.rd / SCALE, sigma = player.volatility;
    if (n == 0) {
        player.rd = ak_glicko_idle_rd(player, 1, p);
        return player;
    }
    /* Steps 3 and 4: the estimated variance and improvement. */
    double vinv = 0, sum = 0;
    for (int j = 0; j < n; j++) {
        double mu_j = (opponents[j].rating - 1500.0) / SCALE, phi_j = opponents[j].rd / SCALE;
        double g = g_of(phi_j), e = expected(mu, mu_j, phi_j);
        vinv += g * g * e * (1 - e);
        sum += g * (scores[j] - e);
    }
    double v = 1.0 / vinv, delta = v * sum;
    /* Steps 5 to 7. */
    double sigma2 = new_volatility(phi, sigma, delta, v, p->tau);
    double phi_star = sqrt(phi * phi + sigma2 * sigma2);
    double phi2 = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    double mu2 = mu + phi2 * phi2 * sum;
    /* Step 8: back to the familiar scale. */
    struct ak_glicko out = {.rating = SCALE * mu2 + 1500.0, .rd = SCALE * phi2, .volatility = sigma2};
    if (out.rd > p->max_rd)
        out.rd = p->max_rd;
    return out;
}
