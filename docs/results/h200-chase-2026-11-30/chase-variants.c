/* r256 variants: first touch (memset) or not, node line by hash or by a
 * multichase-like mixer (offset from x mod 64) or always line 0; pinned or not */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static uint64_t rng=88172645463325252ull; static uint64_t xr(void){rng^=rng<<13;rng^=rng>>7;rng^=rng<<17;return rng;}
static uint64_t hoff(uint64_t k){uint64_t z=(k^0x6c6174ull)*0x9e3779b97f4a7c15ull;z=(z^(z>>30))*0xbf58476d1ce4e5b9ull;z=(z^(z>>27))*0x94d049bb133111ebull;z^=z>>31;return (z%4)*64;}
static uint64_t mix[64];
int main(int argc,char**argv){int touch=atoi(argv[1]),place=atoi(argv[2]),pin=atoi(argv[3]),lap=argc>4?atoi(argv[4]):1;size_t size=1ul<<30,stride=256,n=size/stride;
 if(pin){cpu_set_t s;CPU_ZERO(&s);CPU_SET(0,&s);sched_setaffinity(0,sizeof(s),&s);}
 for(int i=0;i<64;i++)mix[i]=(xr()%32)*8;
 char*b=mmap(NULL,size,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0);madvise(b,size,MADV_NOHUGEPAGE);if(touch)memset(b,0,size);
 uint32_t*perm=malloc(n*4);for(size_t i=0;i<n;i++)perm[i]=i;for(size_t i=n-1;i>0;i--){size_t j=xr()%i;uint32_t t=perm[i];perm[i]=perm[j];perm[j]=t;}
#define OFF(x) ((x)*stride+(place==0?hoff(x):place==1?mix[(x)&63]:0))
 for(size_t i=0;i<n;i++)*(void**)(b+OFF(perm[i]))=b+OFF(perm[(i+1)%n]);
 void**p=(void**)(b+OFF(perm[0]));free(perm);
 if(lap)for(size_t i=0;i<n;i++)p=*p; /* one lap */
 double best=1e9;for(int r=0;r<6;r++){double t0=now();for(long i=0;i<2000000;i++)p=*p;double t=(now()-t0)/2e6*1e9;if(t<best)best=t;}
 printf("touch=%d place=%s pin=%d lap=%d best %.1f %p\n",touch,place==0?"hash":place==1?"mixer":"line0",pin,lap,best,(void*)p);return 0;}
