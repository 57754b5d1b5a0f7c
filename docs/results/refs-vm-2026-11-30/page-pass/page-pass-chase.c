#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static uint64_t rng=88172645463325252ull; static uint64_t xr(void){rng^=rng<<13;rng^=rng>>7;rng^=rng<<17;return rng;}
static size_t size=1ul<<30, stride=256; static char*b; static void**cur;
static pthread_barrier_t bs, bd; static int job; static long iters;
static void pin(int c){cpu_set_t s;CPU_ZERO(&s);CPU_SET(c,&s);pthread_setaffinity_np(pthread_self(),sizeof(s),&s);}
static void*worker(void*a){pin(0);for(;;){pthread_barrier_wait(&bs); if(job==0)break; if(job==1)memset(b,0,size); else if(job==3){volatile char*q=b;long x=0;for(size_t o=0;o<size;o+=4096)x+=q[o];iters=x;} else {void**p=cur;for(long i=0;i<iters;i++)p=*p;cur=p;} pthread_barrier_wait(&bd);}return 0;}
static void run(int j){job=j;pthread_barrier_wait(&bs);pthread_barrier_wait(&bd);}
int main(int argc,char**argv){int smaps=atoi(argv[1]),forked=atoi(argv[2]),bc=atoi(argv[3]);
 if(forked){pid_t c=fork(); if(c>0){int st; waitpid(c,&st,0); return 0;}}
 if(bc>=0)pin(bc);
 pthread_barrier_init(&bs,0,2);pthread_barrier_init(&bd,0,2);pthread_t t;pthread_create(&t,0,worker,0);
 b=mmap(NULL,size,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0); madvise(b,size,MADV_NOHUGEPAGE);
 run(1);
 if(smaps){FILE*f=fopen("/proc/self/smaps","r");char l[512];long x=0;while(fgets(l,512,f))x+=strlen(l);fclose(f);}
 size_t n=size/stride;uint32_t*perm=malloc(n*4);for(size_t i=0;i<n;i++)perm[i]=i;
 for(size_t i=n-1;i>0;i--){size_t j=xr()%(i+1);uint32_t t=perm[i];perm[i]=perm[j];perm[j]=t;}
 for(size_t i=0;i<n;i++)*(void**)(b+(size_t)perm[i]*stride)=b+(size_t)perm[(i+1)%n]*stride; cur=(void**)b; free(perm);
 double w0=now();run(3);double w=now()-w0; w0=now();run(3);double w2=now()-w0; printf("smaps %d forked %d build %d: warm %.0f then %.0f ns/page: ",smaps,forked,bc,w/262144*1e9,w2/262144*1e9);
 for(int r=0;r<8;r++){iters=200000;double t0=now();run(2);printf("%.0f ",(now()-t0)/iters*1e9);}printf("\n");
 job=0;pthread_barrier_wait(&bs);pthread_join(t,0);return 0;}
