/* sequential.c - looks and alpha spending of auto rounds (sequential.h). */
#include "verdict/sequential.h"

#include <math.h>

int seq_looks_at(unsigned r, unsigned max)
{
	return r >= SEQ_MIN_ROUNDS && r <= max && (r == max || (r - SEQ_MIN_ROUNDS) % 2 == 0);
}

static double phi(double x)
{
	return 0.5 * erfc(-x / sqrt(2.0));
}

/* z with Phi(z) = p, by bisection: a few dozen steps, called a few times a run */
static double phi_inv(double p)
{
	double lo = -40, hi = 40;
	for (int i = 0; i < 200 && hi - lo > 1e-12; i++) {
		double mid = 0.5 * (lo + hi);
		if (phi(mid) < p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

double seq_spent(double alpha, double t)
{
	if (!(t > 0))
		return 0;
	if (t >= 1)
		return alpha;
	return 2 - 2 * phi(phi_inv(1 - alpha / 2) / sqrt(t));
}

double seq_alpha(double alpha, unsigned prev, unsigned r, unsigned max)
{
	if (!max || r <= prev)
		return 0;
	return seq_spent(alpha, (double)r / max) - seq_spent(alpha, (double)prev / max);
}
