// layouts.cu - the stream layouts, L2 reads and SM host copies compared on the one-H200 machine
// (2026-12-01) before gpu.stream, gpu.l2 and gpu.copy engines=sm were changed; output in
// layouts.txt. Build: nvcc -O3 -std=c++17 -arch=sm_90 layouts.cu -o layouts
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e=(x); if(e){printf("%s: %s\n",#x,cudaGetErrorString(e)); exit(1);} } while(0)
__global__ void w_gs(uint4* p, size_t n, unsigned U) { // grid-stride, U=4 fixed unroll
  size_t st=(size_t)gridDim.x*blockDim.x, i=(size_t)blockIdx.x*blockDim.x+threadIdx.x;
  for(; i+3*st<n; i+=4*st){ for(int k=0;k<4;k++){ size_t j=i+k*st; p[j]=make_uint4(j,1,j>>32,2);} }
  for(; i<n; i+=st) p[i]=make_uint4(i,1,i>>32,2);
}
__global__ void w_flat16(uint4* p, size_t n) { size_t i=(size_t)blockIdx.x*blockDim.x+threadIdx.x; if(i<n) p[i]=make_uint4(i,1,i>>32,2); }
__global__ void w_flat8(double* p, size_t n) { size_t i=(size_t)blockIdx.x*blockDim.x+threadIdx.x; if(i<n) p[i]=0.23; }
template<int K> __global__ void w_chunk(uint4* p, size_t n) { // block-contiguous chunk of K*blockDim
  size_t b=(size_t)blockIdx.x*blockDim.x*K+threadIdx.x;
  #pragma unroll
  for(int k=0;k<K;k++){ size_t j=b+(size_t)k*blockDim.x; if(j<n) p[j]=make_uint4(j,1,j>>32,2);} }
__global__ void w_cs_flat16(uint4* p, size_t n) { size_t i=(size_t)blockIdx.x*blockDim.x+threadIdx.x; if(i<n) __stcs(p+i, make_uint4(i,1,i>>32,2)); }
__global__ void r_gs(const uint4* __restrict__ p, size_t n, unsigned long long* out) {
  size_t st=(size_t)gridDim.x*blockDim.x, i=(size_t)blockIdx.x*blockDim.x+threadIdx.x; uint4 a=make_uint4(0,0,0,0);
  for(; i+3*st<n; i+=4*st){ uint4 v[4]; for(int k=0;k<4;k++) v[k]=p[i+k*st]; for(int k=0;k<4;k++){a.x^=v[k].x;a.y^=v[k].y;a.z^=v[k].z;a.w^=v[k].w;} }
  for(; i<n; i+=st){ uint4 v=p[i]; a.x^=v.x;a.y^=v.y;a.z^=v.z;a.w^=v.w; }
  if((a.x^a.y^a.z^a.w)==0x1234567) atomicAdd(out,1); }
template<int K> __global__ void r_chunk(const uint4* __restrict__ p, size_t n, unsigned long long* out) {
  size_t b=(size_t)blockIdx.x*blockDim.x*K+threadIdx.x; uint4 a=make_uint4(0,0,0,0);
  #pragma unroll
  for(int k=0;k<K;k++){ size_t j=b+(size_t)k*blockDim.x; if(j<n){uint4 v=p[j]; a.x^=v.x;a.y^=v.y;a.z^=v.z;a.w^=v.w;} }
  if((a.x^a.y^a.z^a.w)==0x1234567) atomicAdd(out,1); }
// L2: block b reads region (b % regions), chunk elems each, U loads in flight
template<int U, bool CG> __global__ void r_l2(const uint4* __restrict__ p, size_t chunk, unsigned regions, unsigned long long* out) {
  const uint4* q=p+(size_t)(blockIdx.x%regions)*chunk; uint4 a=make_uint4(0,0,0,0);
  for(size_t i=threadIdx.x; i<chunk; i+=(size_t)U*blockDim.x){ uint4 v[U];
    #pragma unroll
    for(int k=0;k<U;k++) v[k]= CG? __ldcg(q+i+k*blockDim.x) : q[i+k*blockDim.x];
    #pragma unroll
    for(int k=0;k<U;k++){a.x^=v[k].x;a.y^=v[k].y;a.z^=v[k].z;a.w^=v[k].w;} }
  if((a.x^a.y^a.z^a.w)==0x1234567) atomicAdd(out,1); }
__global__ void cp_gs(uint4* __restrict__ d, const uint4* __restrict__ s, size_t n) {
  size_t st=(size_t)gridDim.x*blockDim.x, i=(size_t)blockIdx.x*blockDim.x+threadIdx.x;
  for(; i+3*st<n; i+=4*st){ uint4 v[4]; for(int k=0;k<4;k++) v[k]=s[i+k*st]; for(int k=0;k<4;k++) d[i+k*st]=v[k]; }
  for(; i<n; i+=st) d[i]=s[i]; }
template<class F> double best_gbps(double bytes, int reps, F f) {
  cudaEvent_t a,b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b)); std::vector<double> v;
  f(); CK(cudaDeviceSynchronize());
  for(int s=0;s<11;s++){ CK(cudaEventRecord(a)); for(int i=0;i<reps;i++) f(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b)); float ms; CK(cudaEventElapsedTime(&ms,a,b)); v.push_back(bytes*reps/(ms*1e-3)/1e9); }
  CK(cudaGetLastError()); std::sort(v.begin(),v.end()); return v[5]; }
int main(){
  cudaDeviceProp pr; CK(cudaGetDeviceProperties(&pr,0)); int sms=pr.multiProcessorCount; printf("%s sms=%d l2=%d\n",pr.name,sms,pr.l2CacheSize);
  size_t maxb=4ull<<30; void *A,*B; CK(cudaMalloc(&A,maxb)); CK(cudaMalloc(&B,maxb)); unsigned long long* out; CK(cudaMalloc(&out,8));
  CK(cudaMemset(A,1,maxb)); CK(cudaMemset(B,1,maxb));
  for(size_t bytes: {1ull<<30, 2ull<<30, 4ull<<30}){ size_t n=bytes/16; int reps=bytes==(1ull<<30)?40:10;
    for(int th: {256,512,1024}) for(int bp: {1,2,4,8}) if(th*bp<=2048){ unsigned g=sms*bp;
      printf("%zuG write gs  th=%d bpsm=%d  %.0f\n", bytes>>30, th,bp, best_gbps(bytes,reps,[&]{w_gs<<<g,th>>>((uint4*)B,n,4);}));
      printf("%zuG read  gs  th=%d bpsm=%d  %.0f\n", bytes>>30, th,bp, best_gbps(bytes,reps,[&]{r_gs<<<g,th>>>((uint4*)A,n,out);})); }
    for(int th: {128,256,512,1024}){
      printf("%zuG write flat16 th=%d %.0f\n", bytes>>30, th, best_gbps(bytes,reps,[&]{w_flat16<<<(n+th-1)/th,th>>>((uint4*)B,n);}));
      printf("%zuG write cs_flat16 th=%d %.0f\n", bytes>>30, th, best_gbps(bytes,reps,[&]{w_cs_flat16<<<(n+th-1)/th,th>>>((uint4*)B,n);}));
      printf("%zuG write flat8 th=%d %.0f\n", bytes>>30, th, best_gbps(bytes,reps,[&]{w_flat8<<<(bytes/8+th-1)/th,th>>>((double*)B,bytes/8);}));
      printf("%zuG write chunk4 th=%d %.0f\n", bytes>>30, th, best_gbps(bytes,reps,[&]{w_chunk<4><<<(n+4*th-1)/(4*th),th>>>((uint4*)B,n);}));
      printf("%zuG write chunk8 th=%d %.0f\n", bytes>>30, th, best_gbps(bytes,reps,[&]{w_chunk<8><<<(n+8*th-1)/(8*th),th>>>((uint4*)B,n);}));
      printf("%zuG read  chunk4 th=%d %.0f\n", bytes>>30, th, best_gbps(bytes,reps,[&]{r_chunk<4><<<(n+4*th-1)/(4*th),th>>>((uint4*)A,n,out);}));
      printf("%zuG read  chunk8 th=%d %.0f\n", bytes>>30, th, best_gbps(bytes,reps,[&]{r_chunk<8><<<(n+8*th-1)/(8*th),th>>>((uint4*)A,n,out);}));
    }
  }
  for(size_t ds: {2ull<<20, 4ull<<20, 8ull<<20, 12ull<<20, 16ull<<20, 24ull<<20, 32ull<<20}){
    for(size_t cb: {128ull<<10, 512ull<<10}) { size_t chunk=cb/16; unsigned regions=ds/cb; size_t blocks=(8ull<<30)/cb;
      for(int th: {512,1024}) {
        printf("L2 ds=%zuM chunk=%zuK th=%d U4 cg %.0f\n", ds>>20, cb>>10, th, best_gbps((double)blocks*cb,3,[&]{r_l2<4,true><<<blocks,th>>>((uint4*)A,chunk,regions,out);}));
        printf("L2 ds=%zuM chunk=%zuK th=%d U8 cg %.0f\n", ds>>20, cb>>10, th, best_gbps((double)blocks*cb,3,[&]{r_l2<8,true><<<blocks,th>>>((uint4*)A,chunk,regions,out);}));
        printf("L2 ds=%zuM chunk=%zuK th=%d U4 ca %.0f\n", ds>>20, cb>>10, th, best_gbps((double)blocks*cb,3,[&]{r_l2<4,false><<<blocks,th>>>((uint4*)A,chunk,regions,out);}));
      } } }
  // SM copies host<->device, pinned
  size_t hb=512ull<<20; void* H; CK(cudaHostAlloc(&H,hb,cudaHostAllocDefault)); memset(H,1,hb); void* Hd; CK(cudaHostGetDevicePointer(&Hd,H,0));
  for(int bp: {1,2,4}) for(int th: {256,512,1024}) if(bp*th<=2048) { unsigned g=sms*bp; size_t n=hb/16;
    printf("SM h2d bpsm=%d th=%d %.1f\n", bp, th, best_gbps(hb,5,[&]{cp_gs<<<g,th>>>((uint4*)A,(uint4*)Hd,n);}));
    printf("SM d2h bpsm=%d th=%d %.1f\n", bp, th, best_gbps(hb,5,[&]{cp_gs<<<g,th>>>((uint4*)Hd,(uint4*)A,n);})); }
  return 0; }
